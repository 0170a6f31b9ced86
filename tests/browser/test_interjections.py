"""Joining the debate in a real browser: the owner starts a dialogue debate (run by the real worker
against the scripted Anthropic API), pauses it, posts a question to one persona from the form under
the chat, continues, and sees that persona answer it next; the results page and the Markdown export
show the interjection and who answered it. Another user and a share-link viewer cannot post."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.models import Debate, Interjection
from devtools.scripted_debate import ANSWER_OPENING
from tests.support.browser_steps import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000
ASKED = "What would make you give up on inflation targeting?"
ADDRESSED = "The Central-Bank Institutionalist"


def set_up_users() -> None:
    call_command("loadseed", verbosity=0)
    get_user_model().objects.create_user("asker", password=PASSWORD)
    get_user_model().objects.create_user("stranger", password=PASSWORD)


def _post_as(page, base_url: str, debate_id: str) -> int:
    """POST an interjection with a valid CSRF token from whatever session ``page`` has."""
    page.goto(f"{base_url}/accounts/login/")
    token = page.eval_on_selector("input[name=csrfmiddlewaretoken]", "i => i.value")
    response = page.request.post(
        f"{base_url}/debates/{debate_id}/interject/",
        form={"kind": "question", "text": "Let me in"},
        headers={"X-CSRFToken": token, "Referer": f"{base_url}/"},
    )
    return response.status


def test_the_owner_asks_one_persona_and_that_persona_answers_next(
    page, browser, live_server_url, celery_worker_process, server_side, screenshot
):
    server_side(set_up_users)
    log_in(page, live_server_url, "asker", PASSWORD)
    money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
    page.select_option("#id_deck", money)
    page.locator("#hand .persona-card", has_text="The Hard-Money Maximalist").wait_for()
    for name in ["The Hard-Money Maximalist", ADDRESSED, "The Macro Trader"]:
        page.locator("#hand .persona-card", has_text=name).click()
    page.fill("#id_topic", "Should central banks target inflation at all?")
    page.check("input[name=length][value=short]")
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    # Pause after a couple of turns: the question is the guidance the debate continues with.
    page.wait_for_function(
        "() => document.querySelectorAll('#chat-log article.msg:not(.is-streaming)').length >= 2", timeout=60_000
    )
    page.click("#pause-debate")
    page.wait_for_selector("#continue-debate", state="visible", timeout=DEBATE_TIMEOUT_MS)

    page.check("#interjection-form input[name=kind][value=question]")
    page.fill("#interjection-form textarea[name=text]", ASKED)
    page.select_option("#interjection-form select[name=to]", ADDRESSED)
    assert page.input_value("#interjection-form select[name=to]") == ADDRESSED
    page.click("#post-interjection")
    posted = page.locator("#chat-log article.interjection", has_text=ASKED)
    posted.wait_for()
    saved = server_side(lambda: list(Interjection.objects.values_list("kind", "to_persona__name")))
    assert saved == [("question", ADDRESSED)], saved
    assert f"Question to {ADDRESSED}" in posted.locator(".msg-kind").text_content(), posted.inner_html()
    # The form is fresh again once the post's answer has replaced it (the interjection itself
    # may come over the websocket first).
    page.wait_for_function("() => document.querySelector('#interjection-form textarea[name=text]').value === ''")
    screenshot(page, "interjection-posted")

    page.click("#continue-debate")
    posted.locator(".interjection-answer", has_text=f"Answered by {ADDRESSED}").wait_for(timeout=DEBATE_TIMEOUT_MS)
    # The very next message in the chat after the interjection is the addressed persona's answer.
    answer = page.locator("#chat-log article.interjection ~ article.msg").first
    assert answer.locator(".msg-author").text_content() == ADDRESSED
    assert answer.locator(".msg-text").text_content().startswith(ANSWER_OPENING)
    screenshot(page, "interjection-answered")

    # Other people cannot post: another user gets 404; a share-link viewer (not logged in) too.
    page.click("#share-debate")
    share_url = page.locator("#share-url").input_value()
    stranger = browser.new_context().new_page()
    log_in(stranger, live_server_url, "stranger", PASSWORD)
    assert _post_as(stranger, live_server_url, debate_id) == 404
    viewer = browser.new_context().new_page()
    viewer.goto(share_url)
    assert viewer.locator("#interjection-form").count() == 0
    assert _post_as(viewer, live_server_url, debate_id) in (403, 404)
    assert server_side(lambda: Interjection.objects.filter(debate_id=debate_id).count()) == 1

    # The results and the Markdown export show it and who answered it.
    page.wait_for_function(
        "() => document.querySelector('#status-line .status-pill').textContent.trim() === 'Completed'",
        timeout=DEBATE_TIMEOUT_MS,
    )
    assert server_side(lambda: Debate.objects.get(pk=debate_id).status) == Debate.Status.COMPLETED
    # The finished debate takes no more interjections: the live page drops the form as it ends.
    page.locator("#interjection-form").wait_for(state="detached")
    page.goto(f"{live_server_url}/debates/{debate_id}/results/")
    listed = page.locator(".results-interjections li", has_text=ASKED)
    assert f"answered by {ADDRESSED}" in listed.text_content()
    markdown = page.request.get(f"{live_server_url}/debates/{debate_id}/export.md").text()
    assert ASKED in markdown and f"answered by {ADDRESSED}" in markdown
    assert not page.js_errors
