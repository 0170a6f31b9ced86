"""An Analyst/Critic debate in a real browser, run by the real worker against the scripted Anthropic
API: started from the setup page with a project as context, it pauses after round 1 with the
consensus bar at 50 %, Continue plays round 2 (the bar moves to 100 %: consensus), the synthesis is
written; it is copied to the clipboard, saved to the project as a note (found on the project page),
and "Ask a new question" opens the setup page with the same context and mode."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.models import Debate
from projects.models import Note, Project
from tests.browser.checks import assert_accessible
from tests.support.browser_steps import log_in, money_pair_pick

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000


def set_up_user() -> int:
    call_command("loadseed", verbosity=0)
    user = get_user_model().objects.create_user("weigher", password=PASSWORD)
    return Project.objects.create(owner=user, name="Retirement plan").pk


def meter_value(page) -> str:
    return page.eval_on_selector("#consensus-panel .consensus-bar", "m => m.getAttribute('value')")


def test_an_analyst_critic_debate_pauses_continues_and_its_synthesis_is_copied_and_saved(
    page, live_server_url, celery_worker_process, server_side, screenshot
):
    project_id = server_side(set_up_user)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server_url)
    log_in(page, live_server_url, "weigher", PASSWORD)
    money_pair_pick(page)
    page.fill("#id_topic", "Should a saver buy index funds?")
    page.select_option("#id_context", f"project:{project_id}")
    # Rounds and auto-continue belong to Analyst vs Critic: shown only once it is picked.
    assert page.is_hidden("#id_rounds") and page.is_hidden("#id_auto_continue")
    page.check("input[name=mode][value=analyst_critic]")
    assert page.is_visible("#id_rounds") and page.is_visible("#id_auto_continue")
    assert not page.is_checked("#id_auto_continue")  # pausing after each round is the default
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    # Round 1 is scored (the bar at 50 %), then the debate pauses and offers Continue.
    page.wait_for_selector("#continue-debate", state="visible", timeout=DEBATE_TIMEOUT_MS)
    assert meter_value(page) == "50"
    assert page.locator("#status-line .status-pill").text_content() == "Paused"
    assert "Paused after round 1 at 50% consensus" in page.locator("#debate-banner").text_content()
    assert page.locator("#chat-log .msg-kind", has_text="Analyst").count() == 1
    assert server_side(lambda: Debate.objects.get(pk=debate_id).status) == Debate.Status.PAUSED
    screenshot(page, "analyst-critic-paused")

    page.click("#continue-debate")
    # Round 2 agrees on everything: the bar moves to 100 % and the synthesis is written.
    page.wait_for_function(
        "() => { const m = document.querySelector('#consensus-panel .consensus-bar');"
        " return m && m.getAttribute('value') === '100'; }",
        timeout=DEBATE_TIMEOUT_MS,
    )
    page.wait_for_selector("#synthesis-card", timeout=DEBATE_TIMEOUT_MS)
    assert (
        "Consensus (100% of the points agreed after 2 rounds)"
        in page.locator("#results .verdict-sentence").text_content()
    )
    debate = server_side(Debate.objects.get, pk=debate_id)
    assert debate.status == Debate.Status.COMPLETED and debate.results["status"] == "consensus"
    assert debate.results["rounds"] == 2
    synthesis = debate.results["synthesis"]
    assert synthesis in page.locator("#synthesis-text").text_content()
    texts = page.eval_on_selector_all("#chat-log .msg-text", "els => els.map(e => e.textContent.trim())")
    assert len(texts) == 5 and "(no answer)" not in texts and "Refined in round 2" in texts[2]
    screenshot(page, "analyst-critic-synthesis", full_page=True)
    assert_accessible(page, "analyst/critic live page, finished")

    # Copy: the synthesis as written, on the clipboard.
    page.click("#copy-synthesis")
    page.wait_for_function("() => document.getElementById('copy-synthesis').textContent === 'Copied'")
    assert page.evaluate("() => navigator.clipboard.readText()") == synthesis

    # Save to project: the owner's project (the debate's context, picked already), as a note.
    assert page.locator("#save-project").input_value() == str(project_id)
    page.click("#save-synthesis")
    page.wait_for_url(re.compile(r".*/projects/\d+/notes/\d+/$"))
    assert page.locator("#note-title").text_content() == "Synthesis: Should a saver buy index funds?"
    page.goto(f"{live_server_url}/projects/{project_id}/")
    assert "Synthesis: Should a saver buy index funds?" in page.locator("#notes").text_content()
    note = server_side(Note.objects.get, project_id=project_id)
    assert synthesis in note.content and str(note.debate_id) == debate_id

    # Ask a new question: the setup page, same context and mode, the topic left empty.
    page.goto(f"{live_server_url}/debates/{debate_id}/")
    page.click("#ask-again")
    page.wait_for_url(re.compile(r".*/debates/new/\?mode=analyst_critic&.*"))
    assert page.is_checked("input[name=mode][value=analyst_critic]")
    assert page.locator("#id_context").input_value() == f"project:{project_id}"
    assert page.locator("#id_topic").input_value() == ""
    assert page.locator("#hand input[name=personas]:checked").count() == 2
    assert not page.js_errors
