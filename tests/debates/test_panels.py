"""What a mode's page draws is data (debates/panels.py): no template branches on the mode."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template.loader import get_template, render_to_string

from debates.modes import mode_panels as panels_for
from debates.state import DebateView

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def test_no_template_branches_on_the_mode():
    branches = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"mode\s*(==|!=)", line)
    ]
    assert branches == []


@pytest.mark.parametrize("mode", ["dialogue", "graph", "analyst_critic", "collaborate"])
def test_every_template_a_mode_draws_exists(mode):
    panels = panels_for(mode)
    names = [panels.body, panels.channel, panels.counter, panels.results, panels.results_detail, panels.results_lead]
    names += [*panels.side_panels, *panels.status_extras, *panels.owner_actions]
    for name in filter(None, names):
        get_template(name)


def test_a_mode_s_own_templates_live_in_its_folder():
    for mode in ("dialogue", "graph", "analyst_critic", "collaborate"):
        panels = panels_for(mode)
        mode_templates = [*panels.side_panels, *panels.status_extras, *panels.owner_actions, panels.results]
        assert all(name.startswith(f"modes/{mode}/") for name in filter(None, mode_templates)), mode


def test_an_unknown_mode_draws_the_plain_dialogue_page():
    assert panels_for("a mode nobody registered") == panels_for("dialogue")
    view = DebateView(
        debate_id="0f0e0d0c-0000-0000-0000-000000000001", mode="a mode nobody registered", status="running"
    )
    html = render_to_string("debates/partials/live_snapshot.html", {"view": view})
    assert 'id="chat-log"' in html and 'id="crux-cards"' in html and 'id="drawer-tabs"' in html
    assert 'id="where-we-are"' in html
    assert 'id="graph-panel"' not in html and 'id="consensus-panel"' not in html and 'id="collaboration"' not in html


def test_analyst_vs_critic_draws_no_crux_cards_nor_crux_rooms_it_never_fills():
    view = DebateView(debate_id="0f0e0d0c-0000-0000-0000-000000000002", mode="analyst_critic", status="running")
    html = render_to_string("debates/partials/live_snapshot.html", {"view": view})
    assert 'id="consensus-panel"' in html
    assert 'id="crux-cards"' not in html and 'id="drawer-tabs"' not in html and 'id="positions"' not in html
