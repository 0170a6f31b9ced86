"""The open live page is never silently stale: a pushed update lost on the way (committed, but
never published) is repaired without a reload, whether or not another update follows it."""

import pytest

from debates import broadcast
from tests.browser.test_live_page import a_debate, chat_messages, log_in
from tests.debates.log_builder import sample_results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drop_pushes(monkeypatch, seqs: set[int]) -> None:
    """Lose the pushes of these events between the database and the page."""
    real = broadcast.event_notice
    monkeypatch.setattr(broadcast, "event_notice", lambda event: None if event.seq in seqs else real(event))


# The chat log as the server rendered the page is marked; the socket's snapshot replaces it.
MARK_PAGE_LOG = """document.addEventListener("DOMContentLoaded", () => {
  const log = document.getElementById("chat-log");
  if (log) log.dataset.fromPage = "yes";
});"""


def open_live_page(page, live_server_url, debate) -> None:
    log_in(page, live_server_url, "alice")
    page.add_init_script(MARK_PAGE_LOG)
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    # The snapshot is in: what the test writes from now on reaches the page as live updates.
    page.wait_for_function("() => !document.getElementById('chat-log').dataset.fromPage")
    page.evaluate("window.__notReloaded = true")


def test_a_lost_update_followed_by_another_is_repaired_on_the_open_page(
    page, live_server_url, server_side, monkeypatch
):
    debate, personas, log = server_side(a_debate, ("Ada Hardmoney", "Bram Macro"))
    open_live_page(page, live_server_url, debate)
    lost = server_side(lambda: debate.events.count()) + 2  # the next message's completion

    drop_pushes(monkeypatch, {lost})
    first = server_side(log.say, personas[0], "Gold kept its value for centuries.")
    # Its start arrives, its completion is lost. Under load the page may already have repaired it
    # by its own periodic report (then it is no longer streaming), so wait only for the message.
    page.wait_for_selector(f"#msg-{first.id}")
    second = server_side(log.say, personas[1], "Centuries are not a portfolio's horizon.")

    page.wait_for_selector(f"#msg-{second.id}:not(.is-streaming)")
    assert chat_messages(page) == [
        [f"msg-{first.id}", "Gold kept its value for centuries."],
        [f"msg-{second.id}", "Centuries are not a portfolio's horizon."],
    ]
    assert page.locator(f"#msg-{first.id}.is-streaming").count() == 0
    assert page.evaluate("window.__notReloaded") and not page.js_errors


def test_a_lost_last_update_is_repaired_on_the_open_page(page, live_server_url, server_side, monkeypatch):
    debate, personas, log = server_side(a_debate, ("Ada Hardmoney", "Bram Macro"))
    server_side(log.say, personas[0], "Closing: gold is insurance.", kind="closing")
    open_live_page(page, live_server_url, debate)
    finished = server_side(lambda: debate.events.count()) + 1

    drop_pushes(monkeypatch, {finished})
    server_side(log.complete, sample_results("Is gold insurance?", names=("Ada Hardmoney", "Bram Macro")))

    # Nothing follows the debate's last event: the page's own report of what it shows finds it
    # behind the log (every 5 s; an event counts as lost 2 s after it was persisted).
    page.wait_for_selector("#results h2", timeout=15_000)
    assert page.locator("#status-line .status-pill").text_content() == "Completed"
    assert page.get_attribute("#status-line", "data-seq") == str(finished)
    assert page.evaluate("window.__notReloaded") and not page.js_errors
