"""One verdict sentence on every surface, in every mode: a finished debate's header (the banner),
its results and its Markdown export say the same sentence, word for word, and no side panel
still shows an interim reading beside it. One short debate per mode, run by the shared worker
against its scripted model (which answers at once)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.models import Debate
from debates.modes import mode_spec
from debates.services.lifecycle import DebateOptions, debate_start
from personas.models import Persona
from personas.services import role_personas
from tests.support.browser_steps import log_in

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000
FINISHED = "() => document.querySelector('#debate-banner').classList.contains('banner-completed')"
MONEY = ["hard-money-maximalist", "central-bank-institutionalist"]


def start(mode: str) -> str:
    """A short debate of ``mode``, owned by the signed-in user and queued for the shared worker."""
    owner = get_user_model().objects.get(username="reader")
    spec = mode_spec(mode)
    ids = role_personas(spec.seats) if spec.seats else MONEY
    personas = [Persona.objects.get(persona_id=persona_id) for persona_id in ids]
    debate = debate_start(
        owner=owner,
        topic="Should a saver hold gold?",
        personas=personas,
        mode=mode,
        max_turns=2 if mode == "analyst_critic" else 3 if mode in ("dialogue", "graph") else None,
        options=DebateOptions(length="short", auto_continue=True),
    )
    return str(debate.id)


def set_up_user() -> None:
    call_command("loadseed", verbosity=0)
    get_user_model().objects.create_user("reader", password=PASSWORD)


@pytest.mark.parametrize("mode", ["dialogue", "graph", "analyst_critic", "collaborate"])
def test_the_header_the_results_and_the_export_say_the_same_verdict_sentence(
    mode, page, live_server_url, celery_worker_process, server_side
):
    server_side(set_up_user)
    log_in(page, live_server_url, "reader", PASSWORD)
    debate_id = server_side(start, mode)

    page.goto(f"{live_server_url}/debates/{debate_id}/")
    page.wait_for_function(FINISHED, timeout=DEBATE_TIMEOUT_MS)
    header = page.locator("#debate-banner .verdict-sentence").inner_text().strip()
    assert header and header != "Completed."
    # On the live page, once it has ended, no panel still gives an interim reading beside it.
    on_page = page.locator("main").inner_text()
    assert "still growing" not in on_page and "agreement)" not in on_page

    page.goto(f"{live_server_url}/debates/{debate_id}/results/")
    results = page.locator("#results .verdict-sentence").inner_text().strip()

    export = page.request.get(f"{live_server_url}/debates/{debate_id}/export.md").text()
    landed = re.search(r"^Where it landed: \*\*(.+)\*\*$", export, re.MULTILINE)
    assert landed, export[:2000]
    assert "Regime:" not in export

    assert header == results == landed.group(1).replace("\\", ""), (header, results, landed.group(1))
    debate = server_side(Debate.objects.get, pk=debate_id)
    assert debate.status == Debate.Status.COMPLETED and debate.mode == mode
    assert not page.js_errors
