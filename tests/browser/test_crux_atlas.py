"""The crux atlas in a real browser: three debates run through the real orchestrator with the
scripted model (tests/atlas/scripted_debates.py), a crux planted in all three and worded
differently each time, one unrelated crux in the third. The atlas shows the recurring crux as one
cluster of three and the unrelated one apart; a prediction is kept from a card, its outcome
recorded, and shown on the card and in the atlas; a re-run with a swap opens the setup page
prefilled and, once started, is linked in the atlas. Screenshots go to artifacts/screenshots/."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.atlas.scripted_debates import BENCH, atlas_debates_run
from tests.support.browser_steps import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"


def three_debates() -> tuple[str, list[str]]:
    owner = get_user_model().objects.create_user("atlas-owner", password=PASSWORD)
    return owner.username, [str(debate.id) for debate in atlas_debates_run(owner)]


def test_the_atlas_groups_a_recurring_crux_keeps_predictions_and_links_a_rerun(
    page, live_server_url, server_side, screenshot
):
    username, debate_ids = server_side(three_debates)
    log_in(page, live_server_url, username, PASSWORD)

    page.click("nav >> text=Atlas")
    page.wait_for_url(re.compile(r".*/atlas/$"))
    cruxes = page.locator(".atlas-crux")
    assert cruxes.count() == 2, page.locator(".atlas-crux").all_inner_texts()
    recurring, unrelated = cruxes.nth(0), cruxes.nth(1)
    assert recurring.locator(".atlas-debates").inner_text() == "3 debates"
    assert recurring.locator(".atlas-appearance").count() == 3
    assert "scarcity" in recurring.locator(".atlas-question").inner_text().lower()
    assert "Bram Dove: NO → YES" in recurring.locator(".atlas-shifts").inner_text()
    assert unrelated.locator(".atlas-debates").inner_text() == "1 debate"
    assert "programmers" in unrelated.locator(".atlas-question").inner_text()
    grid = page.locator("#atlas-grid")
    assert grid.locator("tbody tr").count() == 3  # Ada, Bram, Cleo
    assert grid.locator("tbody tr", has_text="Bram Dove").locator(".atlas-side").count() == 2  # debates 1 and 3
    screenshot(page, "crux-atlas", full_page=True)

    page.fill("#atlas-q", "programmers")
    page.click(".atlas-search button")
    assert page.locator(".atlas-crux").count() == 1
    page.goto(f"{live_server_url}/atlas/")

    # A prediction from the first debate's card: its falsifier is no checkable claim, so by hand.
    page.locator(".atlas-crux").nth(0).locator(".atlas-appearance").nth(0).locator("text=Card & predictions").click()
    page.wait_for_url(re.compile(r".*/atlas/cards/\d+/$"))
    assert "not surely checkable" in page.locator(".atlas-falsifiers").inner_text()
    page.select_option("#id_persona", label="Ada Hawk")
    page.fill("#id_claim", "Bitcoin's hash rate falls for two years straight")
    page.fill("#id_settled_by", "The yearly average hash rate, 2027 and 2028")
    page.fill("#id_check_by", "2028-12-31")
    page.click("text=Keep as a prediction")
    row = page.locator(".atlas-predictions .prediction")
    assert row.count() == 1 and "Open" in row.inner_text() and "check by 2028-12-31" in row.inner_text()
    row.locator("text=Record outcome").click()
    page.check("input[name=status][value=came_true]")
    page.fill("#id_outcome_note", "It fell in 2027 and 2028.")
    page.click("text=Save")
    page.wait_for_url(re.compile(r".*/atlas/cards/\d+/$"))
    assert "Came true" in page.locator(".atlas-predictions .prediction").inner_text()

    # On the card itself, in the debate's results.
    page.goto(f"{live_server_url}/debates/{debate_ids[0]}/results/")
    card_prediction = page.locator(".crux-card .card-predictions .prediction").first
    assert "Came true" in card_prediction.inner_text() and "hash rate" in card_prediction.inner_text()

    page.goto(f"{live_server_url}/atlas/")
    atlas_prediction = page.locator(".atlas-crux").nth(0).locator(".atlas-predictions .prediction-came_true")
    assert "It fell in 2027 and 2028." in atlas_prediction.inner_text()

    # Re-run the first debate with Bram swapped for the bench persona.
    page.locator(".atlas-crux").nth(0).locator(".atlas-appearance").nth(0).locator("text=Re-run with a swap").click()
    page.select_option("#id_swap_out", label="Bram Dove")
    page.select_option("#id_swap_in", label=BENCH)
    page.click("text=Open the setup page")
    page.wait_for_url(re.compile(r".*/debates/new/\?.*rerun_of=.*"))
    assert page.input_value("#id_topic") == "Will Bitcoin replace gold as a store of value?"
    assert page.locator("#rerun-note").is_visible()
    checked = page.locator("#hand input[name=personas]:checked")
    picked = {
        page.locator(f"#hand .persona-card[data-persona='{checked.nth(i).get_attribute('value')}']").inner_text()
        for i in range(checked.count())
    }
    assert len(picked) == 2 and any("Ada Hawk" in p for p in picked) and any(BENCH in p for p in picked)
    screenshot(page, "crux-atlas-rerun-setup", full_page=True)
    page.click("#start-debate")
    page.wait_for_url(re.compile(r".*/debates/[0-9a-f-]{36}/$"))

    page.goto(f"{live_server_url}/atlas/")
    rerun = page.locator(".atlas-crux").nth(0).locator(".atlas-rerun")
    assert rerun.count() == 1 and f"{BENCH} in for Bram Dove" in rerun.inner_text()
    screenshot(page, "crux-atlas-linked", full_page=True)
    assert page.js_errors == []
