"""The whole feature in a real browser: sign up, deal a hand, start a debate that a real Celery
worker runs against the scripted Anthropic API, watch it stream (with a crux room and its card),
reload mid-debate, then replay it from the archive. Screenshots go to artifacts/screenshots/."""

import re
import time

import pytest
from django.core.management import call_command

from debates.models import Debate, Message

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"
DEBATE_TIMEOUT_MS = 240_000


def messages_in(page, container: str) -> list[tuple[str, str, bool]]:
    """(id, text, still streaming) of every message shown in a container, in page order."""
    return [
        tuple(m)
        for m in page.eval_on_selector_all(
            f"{container} article.msg",
            "els => els.map(e => [e.id, e.querySelector('.msg-text').textContent, e.classList.contains('is-streaming')])",
        )
    ]


def assert_no_duplicates(messages) -> None:
    ids = [message_id for message_id, _, _ in messages]
    assert len(ids) == len(set(ids)), f"doubled messages: {ids}"


def saved_messages(debate_id, *, room: bool) -> list[tuple[str, str, bool]]:
    rows = Message.objects.filter(debate_id=debate_id, room__isnull=not room).order_by("created_at", "id")
    return [(f"msg-{m.id}", m.text, False) for m in rows]


def test_a_debate_from_signup_to_replay(
    page, live_server_url, celery_worker_process, hostile_model, streaming_model, server_side, screenshot
):
    server_side(call_command, "loadseed", verbosity=0)

    # ── sign up ───────────────────────────────────────────────────────────────────────────────
    page.goto(f"{live_server_url}/")
    page.click("text=Sign up")
    page.fill("#id_username", "dealer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server_url}/debates/new/")

    # ── set up: a deck, a hand of three, a topic, a length ─────────────────────────────────────
    money = page.eval_on_selector("#id_deck", "s => [...s.options].find(o => o.text.startsWith('Money')).value")
    page.select_option("#id_deck", money)  # htmx swaps in that deck's hand
    page.locator("#hand .persona-card", has_text="The Hard-Money Maximalist").wait_for()
    for name in ["The Hard-Money Maximalist", "The Central-Bank Institutionalist", "The Macro Trader"]:
        page.locator("#hand .persona-card", has_text=name).click()
    assert page.locator(".hand-picked").first.text_content() == "3"
    page.fill("#id_topic", "Should central banks target inflation at all?")
    page.check("input[name=length][value=short]")
    screenshot(page, "setup", full_page=True)
    page.click("#start-debate")
    page.wait_for_url(re.compile(rf"{live_server_url}/debates/[0-9a-f-]{{36}}/$"))
    debate_id = page.url.rstrip("/").rsplit("/", 1)[1]
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    # ── it streams ────────────────────────────────────────────────────────────────────────────
    page.wait_for_selector("#chat-log article.msg.is-streaming", timeout=60_000)
    page.wait_for_function(
        "() => document.querySelectorAll('#chat-log article.msg:not(.is-streaming)').length >= 2", timeout=60_000
    )

    # ── reload mid-debate: nothing missing, nothing doubled ───────────────────────────────────
    before = messages_in(page, "#chat-log")
    assert_no_duplicates(before)
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    after = messages_in(page, "#chat-log")
    assert_no_duplicates(after)
    assert [m[0] for m in after[: len(before)]] == [m[0] for m in before], "a message went missing on reload"
    for (message_id, text, streaming), (_, text_after, _) in zip(before, after[: len(before)], strict=True):
        if not streaming:
            assert text_after == text, f"{message_id} changed on reload"
    assert page.evaluate("document.documentElement.dataset.live") == "open"

    # ── a crux room opens in the drawer and deals a card ──────────────────────────────────────
    tab = page.locator("#drawer-tabs .room-tab").first
    tab.wait_for(timeout=DEBATE_TIMEOUT_MS)
    tab.click()
    page.wait_for_selector("#drawer.is-open")
    page.wait_for_selector("#drawer-panels .room-panel:not([hidden]) article.msg", timeout=60_000)
    page.wait_for_timeout(400)
    screenshot(page, "live-crux-room")
    page.wait_for_selector("#crux-cards .crux-card", timeout=DEBATE_TIMEOUT_MS)
    tab.click()
    page.wait_for_selector("#drawer:not(.is-open)")
    page.wait_for_timeout(600)
    # the position ledger draws who disagrees with whom
    page.wait_for_selector("#position-map path.map-disagree", timeout=DEBATE_TIMEOUT_MS)
    screenshot(page, "live-mid-debate")
    # the panel is swapped on every ledger update, so scroll in one step rather than wait for it to hold still
    page.evaluate("document.getElementById('positions').scrollIntoView({block: 'nearest'})")
    screenshot(page, "live-positions")

    # ── it finishes; what the page shows is what the database holds ────────────────────────────
    page.wait_for_selector("#results h2", timeout=DEBATE_TIMEOUT_MS)
    assert page.locator("#status-line .status-pill").text_content() == "Completed"
    assert page.locator("#drawer-tabs .room-tab .tab-suit").count() >= 1, "a finished room shows its suit"
    time.sleep(0.5)  # let any last fragment land
    live_chat = messages_in(page, "#chat-log")
    live_rooms = messages_in(page, "#drawer-panels")
    assert_no_duplicates(live_chat)
    assert_no_duplicates(live_rooms)
    assert live_chat == server_side(saved_messages, debate_id, room=False)
    assert live_rooms == server_side(saved_messages, debate_id, room=True)
    assert server_side(lambda: Debate.objects.get(pk=debate_id).status) == "completed"

    # hostile text from the model stayed text
    assert page.evaluate("window.__xss") is None and not page.js_errors
    assert "<script>window.__xss = 1</script>" in page.locator("#chat-log").text_content()
    assert "<script>window.__xss = 1</script>" in page.locator("#crux-cards").text_content()
    assert page.locator("#debate script, #debate img").count() == 0

    page.goto(f"{live_server_url}/debates/{debate_id}/results/")
    screenshot(page, "results", full_page=True)
    assert page.locator("#results .regime").count() == 1

    # ── replay from the archive: step by step, then all at once ────────────────────────────────
    page.goto(f"{live_server_url}/debates/")
    entry = page.locator(f"#archive-{debate_id}")
    assert "Completed" in entry.text_content()
    page.fill("#archive-q", "central banks")
    page.press("#archive-q", "Enter")
    page.wait_for_url(re.compile(r".*\?q=central\+banks"))
    screenshot(page, "archive")
    entry.locator("text=Step through").click()
    page.wait_for_url(re.compile(r".*/replay/\?step=0$"))
    assert page.locator("#chat-log article.msg").count() == 0
    last = int(page.locator("#replay-last").text_content())
    # Step by step until the first message (planning's events come first: aspects, the question decided on).
    step = 0
    while page.locator("#chat-log article.msg").count() == 0 and step < min(last, 10):
        step += 1
        page.click("#replay-next")
        page.wait_for_selector(f"#replay-step:text-is('{step}')")
    assert page.url.endswith(f"?step={step}") and step < last
    assert page.locator("#chat-log article.msg").count() >= 1
    page.click("#replay-last-link")
    page.wait_for_selector(f"#replay-step:text-is('{last}')")
    assert messages_in(page, "#chat-log") == live_chat
    page.click("#replay-first")
    page.wait_for_selector("#replay-step:text-is('0')")
    page.click("#replay-all")
    page.wait_for_url(re.compile(r".*/replay/$"))
    assert messages_in(page, "#chat-log") == live_chat
    assert messages_in(page, "#drawer-panels") == live_rooms
    assert page.locator("#crux-cards .crux-card").count() >= 1
    screenshot(page, "replay")
    assert page.evaluate("window.__xss") is None and not page.js_errors
