"""The results as pictures, in a real browser: the final position map, one stance-over-time chart
per persona, the one-page summary with the deck. The debate is a whole evaluation scenario run
through the real orchestrator (one persona changes their mind on evidence). Screenshots go to
artifacts/screenshots/."""

import re

import pytest
from django.contrib.auth import get_user_model

from debates.models import Debate
from debates.stance_chart import stance_charts
from orchestration.evaluation.harness import scenario_run
from orchestration.evaluation.scenarios import scenario

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-passphrase-42"


def finished_debate() -> tuple[str, str, dict[str, int]]:
    """A kept run's debate and its owner (the evaluation's own user), given a password to log in
    with, and how many times each persona's side moved in the stance series the debate stored.
    How often the skeptic wavers before the evidence lands is the run's concurrency (when the
    room's card reaches her context), so the page is checked against what this run recorded."""
    record = scenario_run(scenario("flips_on_evidence"), keep=True)
    owner = get_user_model().objects.get(username=record["owner"])
    owner.set_password(PASSWORD)
    owner.save(update_fields=["password"])
    debate = Debate.objects.get(id=record["debate_id"])
    moves = {chart["name"]: len(chart["changes"]) for chart in stance_charts(debate.results["stances"])}
    return owner.username, record["debate_id"], moves


def test_the_results_page_shows_the_position_map_and_how_stances_moved(page, live_server_url, server_side, screenshot):
    username, debate_id, moves = server_side(finished_debate)
    assert moves["Fay Skeptic"] >= 1 and moves["Gus Critic"] == 0  # she changes her mind on evidence; he never needs to
    page.goto(f"{live_server_url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/debates/new/$"))

    page.goto(f"{live_server_url}/debates/{debate_id}/results/")

    assert page.locator("#results .regime .verdict-sentence").inner_text().startswith("Consensus: ")
    assert "Fay Skeptic YES, Gus Critic YES" in page.locator("#results .regime-basis").inner_text()
    nodes = page.locator("#position-map .map-node")
    assert nodes.count() == 2 and page.locator("#position-map path.map-edge").count() >= 1
    charts = page.locator(".stance-chart")
    assert charts.count() == 2
    fay = charts.filter(has_text="Fay Skeptic")
    moved = moves["Fay Skeptic"]
    assert "ends yes" in fay.locator("figcaption").inner_text()
    assert f"moved {moved} time{'s' if moved > 1 else ''}" in fay.inner_text()
    assert fay.locator("circle.stance-change").count() == moved and fay.locator("polyline.stance-line").count() >= 1
    assert charts.filter(has_text="Gus Critic").locator("circle.stance-change").count() == 0
    page.locator(".stance-chart-grid").scroll_into_view_if_needed()
    screenshot(page, "results-pictures", full_page=True)

    page.click("text=One-page summary")
    page.wait_for_url(re.compile(rf".*/debates/{debate_id}/summary/$"))
    assert page.locator(".summary .deck .crux-card").count() == 1
    assert page.locator(".summary #position-map").count() == 1 and page.locator(".summary .stance-chart").count() == 2
    screenshot(page, "summary", full_page=True)
    assert page.js_errors == []
