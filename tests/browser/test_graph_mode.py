"""Graph mode in a real browser: chosen in setup, run by the real worker against the scripted
Anthropic API, its argument map drawn and redrawn live (nodes coloured by label), results computed
from the map. Screenshots go to artifacts/screenshots/."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from debates.models import Debate
from tests.browser.checks import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000


def set_up_user():
    call_command("loadseed", verbosity=0)
    get_user_model().objects.create_user("mapper", password=PASSWORD)


# Every number of nodes the map shows, in order, and whether the results had come by then.
MAP_SIZES = """
window.__mapSizes = [];
new MutationObserver(() => {
  const size = document.querySelectorAll("#graph-panel .gnode").length;
  const done = !!document.querySelector("#results h2");
  const last = window.__mapSizes[window.__mapSizes.length - 1];
  if (!last || last[0] !== size || last[1] !== done) window.__mapSizes.push([size, done]);
}).observe(document, {childList: true, subtree: true});
"""


def test_a_graph_mode_debate_draws_its_map_live(
    page, live_server_url, celery_worker_process, streaming_model, server_side, screenshot
):
    server_side(set_up_user)
    page.context.add_init_script(MAP_SIZES)
    page.goto(f"{live_server_url}/accounts/login/")
    page.fill("#id_username", "mapper")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))

    money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
    page.select_option("#id_deck", money)
    page.locator("#hand .persona-card", has_text="The Hard-Money Maximalist").wait_for()
    for name in ["The Hard-Money Maximalist", "The Central-Bank Institutionalist", "The Macro Trader"]:
        page.locator("#hand .persona-card", has_text=name).click()
    page.fill("#id_topic", "Is hard money the future?")
    page.check("input[name=mode][value=graph]")
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    assert page.locator("#drawer").count() == 0, "graph mode has no crux rooms, so no drawer"

    # the map appears while the debate is live, every node coloured by its label
    # (every size the map has while the page is open is recorded in the page, so a loaded test
    # thread that looks late still sees it: the map is drawn before the results come)
    page.wait_for_function(
        "() => window.__mapSizes.some(([size, done]) => size > 0 && !done)", timeout=DEBATE_TIMEOUT_MS
    )
    labels = page.eval_on_selector_all(
        "#graph-panel .gnode-stance, #graph-panel .gnode-reason", "els => els.map(e => e.dataset.label)"
    )
    assert labels and set(labels) <= {"IN", "OUT", "UNDEC"}  # arguments; disputes show open / settled
    counts = [int(page.locator(f"#graph-panel .gcount-{k}-value").text_content()) for k in ("in", "out", "undec")]
    assert sum(counts) > 0
    # the panel is swapped on every crystallization, so scroll in one step rather than wait for it to hold still
    page.evaluate("document.getElementById('graph-panel').scrollIntoView({block: 'start'})")
    screenshot(page, "graph-live")

    # the results come from the map
    page.wait_for_selector("#results h2", timeout=DEBATE_TIMEOUT_MS)
    # (its camps, or, when every dispute was settled, how each one was: which depends on how the
    # scripted debate's concessions fell on the map)
    results = page.locator("#results").text_content()
    assert "Camps" in results or "resolved:" in results, results
    debate = server_side(Debate.objects.get, pk=debate_id)
    assert (debate.mode, debate.status) == ("graph", Debate.Status.COMPLETED)
    assert not page.js_errors
    screenshot(page, "graph-results", full_page=True)
    assert_accessible(page, "graph-mode live page, finished")
    page.goto(f"{live_server_url}/debates/{debate_id}/results/")
    assert_accessible(page, "graph-mode results")
