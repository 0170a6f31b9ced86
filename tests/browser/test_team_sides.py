"""Your team on the faultlines, in real browsers: Alice invites Bob by name and Carol by a link;
each takes the opposite side on a crux in their own browser; Alice's open results page shows both
as they happen, the two camps and the crux that splits them; Mallory, never invited, gets a 404 on
every page of the debate."""

import re

import pytest
from django.contrib.auth import get_user_model

from debates.services.lifecycle import debate_create
from tests.browser.checks import assert_accessible
from tests.debates.log_builder import DebateLog, sample_results
from tests.factories import DeckFactory, PersonaFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"


def a_finished_debate() -> tuple[str, int]:
    """Alice's finished debate with one crux card; Bob, Carol and Mallory have accounts."""
    users = {
        name: get_user_model().objects.create_user(name, password=PASSWORD)
        for name in ["alice", "bob", "carol", "mallory"]
    }
    personas = [PersonaFactory(persona_id=f"team-{n}", name=name) for n, name in enumerate(["Ada Gold", "Bram Fiat"])]
    deck = DeckFactory(slug="team-deck", name="Money", personas=personas)
    debate = debate_create(owner=users["alice"], topic="Is hard money the future?", personas=personas, deck=deck)
    log = DebateLog(debate).start()
    log.say(personas[0], "Gold has history.", kind="opening")
    room = log.open_room(personas[0], personas[1], "Will gold outlast the dollar?")
    card = log.post_card(room)
    log.close_room(room)
    log.complete(sample_results())
    return str(debate.id), card.id


def another_browser(browser):
    """A second person's own browser, its errors recorded as the ``page`` fixture records them."""
    page = browser.new_context(viewport={"width": 1360, "height": 900}).new_page()
    page.set_default_timeout(20_000)
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    page.on("console", lambda message: page.js_errors.append(message.text) if message.type == "error" else None)
    return page


def log_in(page, url: str, username: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))


def take_side(page, *, side: str, because: str) -> None:
    row = page.locator('.faultline-row[data-crux="1"]')
    row.locator(f'input[name="side"][value="{side}"]').check()
    row.locator('input[name="because"]').fill(because)
    row.locator("button[type=submit]").click()
    row.get_by_text("Saved.").wait_for()


def test_two_people_take_opposite_sides_and_the_owner_watches_the_team_split(
    page, browser, live_server_url, server_side, screenshot
):
    debate_id, card_id = server_side(a_finished_debate)
    results = f"{live_server_url}/debates/{debate_id}/results/"

    log_in(page, live_server_url, "alice")
    page.goto(f"{live_server_url}/debates/{debate_id}/members/")
    page.fill("#id_username", "bob")
    page.click("#member-add")
    page.locator('[data-member="bob"]').wait_for()
    page.click("#invite-link")
    invite = page.locator("#invite-url").input_value()
    assert_accessible(page, "the members page with a new invite link")
    page.goto(results)
    assert_accessible(page, "results with the faultline map")

    bob = another_browser(browser)
    log_in(bob, live_server_url, "bob")
    bob.goto(results)
    carol = another_browser(browser)
    log_in(carol, live_server_url, "carol")
    carol.goto(invite)
    assert_accessible(carol, "the invitation")
    carol.click("#invite-join")
    carol.wait_for_url(results)

    take_side(bob, side="yes", because="If the dollar outlived three more crises.")
    take_side(carol, side="no", because="If gold fell for two years straight.")

    people = page.locator(f"#people-card-{card_id}")
    people.locator('[data-person="bob"][data-side="YES"]').wait_for()
    people.locator('[data-person="carol"][data-side="NO"]').wait_for()
    assert "If gold fell for two years straight." in people.inner_text()
    camps = page.locator("#faultline-camps")
    assert [camps.locator(".camp-members").nth(n).inner_text() for n in range(2)] == ["bob", "carol"]
    assert "Crux 1: Will gold outlast the dollar?" in page.locator("#splitting-crux").inner_text()
    page.locator("#faultline-map").scroll_into_view_if_needed()
    screenshot(page, "team-faultlines", full_page=True)
    # On a phone: the map fits the screen's width (personas and people stack).
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "team-faultlines-phone", full_page=True)
    page.set_viewport_size({"width": 1360, "height": 900})

    mallory = another_browser(browser)
    log_in(mallory, live_server_url, "mallory")
    for path in ["", "results/", "replay/", "export.md", "export.json", "results.md", "members/", "summary/"]:
        answer = mallory.request.get(f"{live_server_url}/debates/{debate_id}/{path}")
        assert answer.status == 404, path
    assert mallory.request.get(invite).status == 404  # Carol took it
    assert page.js_errors == bob.js_errors == carol.js_errors == []
