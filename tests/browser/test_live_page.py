"""The live page in a real browser, fed by events the test appends itself (no orchestrator):
streaming, the drawer, crux cards, reload mid-message, results, and hostile text staying text."""

import re

import pytest
from django.contrib.auth import get_user_model

from debates.services.lifecycle import debate_create
from tests.debates.log_builder import HOSTILE, DebateLog, sample_results
from tests.factories import DeckFactory, PersonaFactory
from tests.support.live_text import message_progress

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"


def log_in(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))


def chat_messages(page) -> list[tuple[str, str]]:
    return page.eval_on_selector_all(
        "#chat-log article.msg", "els => els.map(e => [e.id, e.querySelector('.msg-text').textContent])"
    )


def a_debate(names: tuple[str, ...]):
    owner = get_user_model().objects.create_user("alice", password=PASSWORD)
    personas = [PersonaFactory(name=name) for name in names]
    deck = DeckFactory(personas=personas)
    debate = debate_create(owner=owner, topic="Is gold obsolete?", personas=personas, deck=deck)
    return debate, personas, DebateLog(debate).start()


def test_the_live_page_follows_the_event_log(page, live_server_url, server_side, screenshot):
    debate, personas, log = server_side(a_debate, ("Ada Hardmoney", "Bram Macro", "Cleo Central"))
    server_side(lambda: log.aspects("Evidence", "Time horizon").phase("opening"))
    server_side(log.say, personas[0], f"Gold has five thousand years of history. {HOSTILE}", kind="opening")

    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    # a message streams in: started, text so far, completed
    streaming = server_side(log.begin, personas[1], kind="opening")
    page.wait_for_selector(f"#msg-{streaming.id}.is-streaming")
    server_side(log.stream, streaming, "Liquidity is what")
    server_side(message_progress, debate_id=debate.id, message_id=streaming.id, text="Liquidity is what")
    page.wait_for_selector(f"#msg-{streaming.id} .msg-text:text('Liquidity is what')")

    # reload mid-message: the text so far is there, nothing is missing or doubled
    before = chat_messages(page)
    page.reload()
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    assert chat_messages(page) == before
    server_side(log.finish, streaming, "Liquidity is what moves prices, not history.")
    page.wait_for_selector(f"#msg-{streaming.id}:not(.is-streaming)")

    # a crux room opens in the drawer, streams, closes and deals its card
    room = server_side(log.open_room, personas[0], personas[1], f"Does the long run matter more? {HOSTILE}")
    tab = page.locator(f"#room-tab-{room.id}")
    tab.locator(".pulse").wait_for()
    tab.click()
    page.wait_for_selector("#drawer.is-open")
    panel = page.locator(f"#room-panel-{room.id}")
    panel.wait_for(state="visible")  # the drawer slides up from zero height
    server_side(log.say, personas[0], "It does, decades decide it.", kind="entry", room=room)
    panel.locator("article.msg .msg-text", has_text="decades decide it").wait_for()
    server_side(log.say, personas[1], "Quarters compound into decades.", kind="entry", room=room)
    panel.locator("article.msg .msg-text", has_text="Quarters compound").wait_for()
    assert panel.is_visible(), "the open room stays open while it updates"
    page.wait_for_timeout(400)
    screenshot(page, "event-log-drawer-open")
    server_side(log.close_room, room)
    card = server_side(
        log.post_card, room, question=f"Does the long run matter more? {HOSTILE}", reasoning=f"Decades. {HOSTILE}"
    )
    page.wait_for_selector(f"#card-{card.id}")
    tab.locator(".tab-suit").wait_for()
    assert page.locator(f"#card-{card.id} .corner-tl").text_content() == room.suit
    tab.click()
    page.wait_for_selector("#drawer:not(.is-open)")
    page.wait_for_timeout(600)  # the drawer slides shut, the card is dealt
    screenshot(page, "event-log-live")

    # the debate finishes: results appear, the banner links to them
    server_side(log.say, personas[2], "Closing: both clocks matter.", kind="closing")
    server_side(
        log.complete, sample_results(f"Does the long run matter more? {HOSTILE}", names=("Ada Hardmoney", "Bram Macro"))
    )
    page.wait_for_selector("#results h2")
    page.wait_for_selector("#debate-banner a[href='#results']")
    assert page.locator("#status-line .status-pill").text_content() == "Completed"

    # hostile text everywhere, shown as text, never run
    assert page.evaluate("window.__xss === undefined") and not page.js_errors
    assert page.locator("#chat-log script, #crux-cards script, #drawer script, #results script").count() == 0
    assert page.locator("img[src=x]").count() == 0
    assert "<script>alert(1)</script>" in page.locator(f"#card-{card.id} .crux-question").text_content()
    assert "<script>alert(1)</script>" in page.locator("#results").text_content()
    final = chat_messages(page)
    assert len(final) == len({message_id for message_id, _ in final}) == 3
    screenshot(page, "event-log-finished", full_page=True)


def test_the_live_page_stacks_its_columns_on_a_phone(browser, live_server_url, server_side, screenshot):
    def setup():
        debate, personas, log = a_debate(("Ada Hardmoney", "Bram Macro"))
        log.say(personas[0], "Gold has history.", kind="opening")
        log.post_card(log.open_room(personas[0], personas[1], "Does the long run matter more?"))
        return debate

    debate = server_side(setup)

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    chat = page.locator(".chat-column").bounding_box()
    cards = page.locator(".cards-column").bounding_box()
    assert cards["y"] >= chat["y"] + chat["height"] - 1, "the card column goes below the chat"
    assert chat["width"] > 300
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "live-phone", full_page=True)
    context.close()


def test_the_owner_stops_and_shares_and_a_visitor_watches_read_only(browser, page, live_server_url, server_side):
    from debates.models import Debate

    debate, personas, log = server_side(a_debate, ("Ada Hardmoney", "Bram Macro"))
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    page.click("#share-debate")
    share_url = page.input_value("#share-url")
    assert "/shared/" in share_url

    visitor = browser.new_context().new_page()
    visitor.goto(share_url)
    visitor.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    assert visitor.locator("#stop-debate").is_hidden(), "a visitor gets no controls"
    server_side(log.say, personas[0], "Said while a visitor watched.")
    visitor.locator("#chat-log .msg-text", has_text="Said while a visitor watched.").wait_for()

    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    page.click("#stop-debate")  # an htmx POST, its CSRF token sent as a header
    page.wait_for_selector("#status-line .stopping")
    assert server_side(lambda: Debate.objects.get(pk=debate.id).stop_requested)

    page.click("#unshare-debate")
    page.wait_for_selector("#share-debate")
    # the visitor already watching is disconnected at once, and told why
    visitor.wait_for_function("() => document.documentElement.dataset.live === 'forbidden'")
    assert "no longer shared" in visitor.evaluate(
        "getComputedStyle(document.querySelector('.connection'), '::after').content"
    )
    visitor.reload()
    assert "Not Found" in visitor.content() or visitor.locator("#chat-log").count() == 0
    visitor.context.close()


def test_live_updates_leave_the_animated_dots_running(page, live_server_url, server_side):
    """Streaming text redraws the text alone, and the live dot sits beside the banner (which says
    who speaks now, redrawn at each step), so the typing dots and the live dot are the same
    elements throughout (their animations never restart); both change in steps, and stop for a
    reader who asks for reduced motion."""
    debate, personas, log = server_side(a_debate, ("Ada Hardmoney", "Bram Macro"))
    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate.id}/")
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'")
    server_side(log.say, personas[0], "Gold has history.", kind="opening")
    page.wait_for_selector("#chat-log article.msg:not(.is-streaming)")

    streaming = server_side(log.begin, personas[1], kind="opening")
    page.wait_for_selector(f"#msg-{streaming.id}.is-streaming .typing i")
    page.evaluate(
        """(id) => {
            window.__typing = document.querySelector(`#msg-${id} .typing`);
            window.__pulse = document.querySelector('#live-pulse');
        }""",
        streaming.id,
    )
    for text in ("Liquidity", "Liquidity is what", "Liquidity is what moves"):
        server_side(message_progress, debate_id=debate.id, message_id=streaming.id, text=text)
        page.wait_for_selector(f"#msg-{streaming.id} .msg-text:text-is('{text}')")
    server_side(log.say, personas[0], "History is not liquidity.", kind="opening")
    page.locator("#chat-log .msg-text", has_text="History is not liquidity.").wait_for()

    assert page.evaluate("() => window.__typing.isConnected && window.__pulse.isConnected")
    timing = page.evaluate(
        """() => [getComputedStyle(window.__typing.querySelector('i')).animationTimingFunction,
                  getComputedStyle(window.__pulse, '::after').animationTimingFunction]"""
    )
    assert all(t.startswith("steps(") for t in timing), timing

    page.emulate_media(reduced_motion="reduce")
    names = page.evaluate(
        """() => [getComputedStyle(window.__typing.querySelector('i')).animationName,
                  getComputedStyle(window.__pulse, '::after').animationName]"""
    )
    assert names == ["none", "none"]

    server_side(log.finish, streaming, "Liquidity is what moves prices.")
    page.wait_for_selector(f"#msg-{streaming.id}:not(.is-streaming)")
    assert page.locator(f"#msg-{streaming.id} .typing").count() == 0
