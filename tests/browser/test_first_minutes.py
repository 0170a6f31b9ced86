"""The first minutes of a new user, in every mode, with a model that is slow at first on an idle
worker: the setup page says what each mode is; from Start, before any message, the banner says what
is happening now (the phase, and the persona or role called), counts the seconds of a slow step,
never says anyone is speaking before a word has arrived; no console error and nothing axe-core
finds, minor included, on any page visited."""

import itertools
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.checks import assert_accessible
from tests.support.browser_steps import log_in, money_pair_pick

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
SLOW_SECONDS = 6.0  # each call of the debate's first seconds, and at least of its first three calls
SLOW_WINDOW = 6.0
SLOW_CALLS = 3  # so a loaded machine cannot use the slow start up before the page looks
HAND = r"(The Hard-Money Maximalist|The Central-Bank Institutionalist)"
# What the banner says first, per mode: the phase, then who was called (a role in the two-role modes).
FIRST_STEP = {
    "dialogue": rf"^Opening statements: {HAND} is thinking…",
    "graph": rf"^Opening statements: {HAND} is thinking…",
    "analyst_critic": rf"^Round 1: the Analyst \({HAND}\) is thinking…",
    "collaborate": r"^Both roles answer the brief: the (Architect|Reviewer) \(.+\) (is|and the .+ are) writing…",
}

# Every text the banner's activity line shows, whether a message had begun by then, and whether any
# had words (a Collaborate draft begins as an empty, typing placeholder).
BANNER_RECORDER = """
window.__banner = [];
new MutationObserver(() => {
  const line = document.querySelector("#debate-banner .activity-now");
  const begun = !!document.querySelector("article.msg");
  const worded = [...document.querySelectorAll("article.msg .msg-text")].some((text) => text.textContent.trim());
  if (line && (!window.__banner.length || window.__banner[window.__banner.length - 1][0] !== line.textContent)) {
    window.__banner.push([line.textContent, begun, worded]);
  }
}).observe(document, {childList: true, subtree: true, characterData: true});
"""


@pytest.fixture
def slow_first_model(worker_messages_api):
    """The test worker's model answers slowly for the first seconds of the next debate (from its
    first call) and for its first calls, however long those seconds take; then as scripted."""
    scripted = worker_messages_api.responder
    calls = itertools.count(1)
    window = {"until": None}

    def respond(body, call):
        reply = scripted(body, call)
        now = time.monotonic()
        if window["until"] is None:
            window["until"] = now + SLOW_WINDOW
        if next(calls) <= SLOW_CALLS or now < window["until"]:
            reply.latency = max(reply.latency, SLOW_SECONDS)
        return reply

    worker_messages_api.responder = respond
    yield
    worker_messages_api.responder = scripted


def set_up_user() -> None:
    call_command("loadseed", verbosity=0)
    get_user_model().objects.create_user("newcomer", password=PASSWORD)


@pytest.mark.parametrize("mode", ["dialogue", "graph", "analyst_critic", "collaborate"])
def test_the_first_minutes_say_what_is_happening_from_the_moment_start_is_pressed(
    mode, page, live_server_url, celery_worker_process, slow_first_model, server_side
):
    server_side(set_up_user)
    page.context.add_init_script(BANNER_RECORDER)
    log_in(page, live_server_url, "newcomer", PASSWORD)

    # The setup page: every mode says what it does and when to pick it, in a visible sentence;
    # the one picked also what the page will show.
    choices = page.locator(".mode-choice")
    assert choices.count() == 4
    for choice in choices.all():
        help_text = choice.locator(".mode-help")
        assert help_text.is_visible() and len(help_text.inner_text().strip()) > 40
    assert page.locator("#cost-estimate .cost-estimate-wait").is_visible()  # no figure before a hand
    assert_accessible(page, "the setup page")
    money_pair_pick(page)
    page.check(f"input[name=mode][value={mode}]")
    shows = page.locator(f".mode-choice:has(input[value={mode}]) .mode-shows")
    assert shows.is_visible() and shows.inner_text().startswith("You will see")
    assert page.locator("#cost-estimate .cost-estimate-figure").is_visible()
    page.fill("#id_topic", "Should a saver hold gold?")

    page.click("#start-debate")
    # Before any message: the phase and who was called, on a visible line (how soon after Start is
    # a figure of the page gallery's run, not of a test on a loaded machine).
    try:
        page.wait_for_function(
            "(step) => window.__banner.some(([text]) => new RegExp(step).test(text))",
            arg=FIRST_STEP[mode],
            timeout=30_000,
        )
    except PlaywrightTimeout:
        raise AssertionError(f"no first step: {page.evaluate('window.__banner')}") from None
    banner = page.evaluate("window.__banner")
    first_steps = [worded for text, _, worded in banner if re.search(FIRST_STEP[mode], text)]
    assert first_steps[0] is False, f"the first step is shown before any words: {banner}"
    assert_accessible(page, f"{mode}: the live page at start")

    # A slow step: its seconds are counted on the page (outside the live region's words).
    elapsed = page.locator("#debate-banner .activity-elapsed")
    elapsed.filter(has_text=re.compile(r"^\d+ s$")).wait_for(timeout=15_000)
    assert elapsed.get_attribute("aria-hidden") == "true"

    # The first words: the line says who speaks (or writes) only now.
    page.locator("article.msg").first.wait_for(timeout=60_000)
    page.wait_for_function("() => window.__banner.some(([text]) => /speaking|writing/.test(text))", timeout=30_000)
    shown = page.evaluate("window.__banner")
    assert not [text for text, begun, _ in shown if "speaking" in text and not begun], shown

    page.click("#stop-debate")
    page.locator("#debate-banner.banner-stopped").wait_for(timeout=120_000)
    assert_accessible(page, f"{mode}: the live page, stopped")
    assert page.js_errors == []
