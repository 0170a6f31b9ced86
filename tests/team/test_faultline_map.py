"""The faultline map on the results page and from ``manage.py faultlines``: per crux the personas'
and the people's sides, the camps, and the crux that splits the two largest camps most."""

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from debates.services.members import debate_member_add
from debates.services.sides import side_take

pytestmark = pytest.mark.django_db


@pytest.fixture
def team(debate, cards, user, bob, carol):
    """Alice says yes to both cards; Bob and Carol say no to both, and differ on the question."""
    for name in ["bob", "carol"]:
        debate_member_add(debate=debate, username=name)
    side_take(debate=debate, user=user, crux=1, side="yes", because="If the dollar outlived three crises.")
    side_take(debate=debate, user=user, crux=2, side="yes")
    for person in [bob, carol]:
        side_take(debate=debate, user=person, crux=1, side="no")
        side_take(debate=debate, user=person, crux=2, side="no")
    side_take(debate=debate, user=bob, crux=0, side="nuanced")
    side_take(debate=debate, user=carol, crux=0, side="yes")
    return debate


def test_the_results_page_shows_the_camps_and_the_crux_that_splits_them(owner_client, team):
    page = owner_client.get(reverse("debate_results", args=[team.id])).content.decode()
    camps = page.split('id="faultline-camps"')[1].split("</div>")[0]
    assert [part.split("<")[0] for part in camps.split('class="camp-members">')[1:]] == ["bob, carol", "alice"]
    assert "If the dollar outlived three crises." in camps  # Alice's camp's own falsifier
    assert "Splits the two largest camps most:</span> Crux 1: Will gold outlast the dollar?" in camps


def test_the_faultlines_command_prints_the_map(team, capsys):
    call_command("faultlines", str(team.id), "--user", "carol")
    assert capsys.readouterr().out.splitlines() == [
        "The question: Is hard money the future?",
        "  - persona Ada Hardmoney: YES",
        "  - persona Bram Macro: NO",
        "  - person bob: NUANCED",
        "  - person carol: YES",
        "Crux 1 ♠: Will gold outlast the dollar?",
        "  - persona Ada Hardmoney: YES",
        "  - persona Bram Macro: NO",
        "  - person alice: YES (would change their mind: If the dollar outlived three crises.)",
        "  - person bob: NO",
        "  - person carol: NO",
        "Crux 2 ♥: Can central banks stay independent?",
        "  - persona Bram Macro: YES",
        "  - persona Cleo Central: NO",
        "  - person alice: YES",
        "  - person bob: NO",
        "  - person carol: NO",
        "Camps:",
        "  1. bob, carol",
        "  2. alice",
        "Splits the two largest camps most: Crux 1: Will gold outlast the dollar? (mean side -1.00 against +1.00)",
    ]


def test_the_faultlines_command_is_for_the_owner_and_members_only(team, other_user):
    with pytest.raises(CommandError, match=f"^no debate with id {team.id} \\(for user mallory\\)$"):
        call_command("faultlines", str(team.id), "--user", "mallory")


def test_with_nobody_on_a_side_the_map_says_so_in_one_sentence(owner_client, debate, cards):
    page = owner_client.get(reverse("debate_results", args=[debate.id])).content.decode()
    section = page.split('id="faultline-map"')[1]
    assert "Nobody has taken a side yet." in section
    assert "Camps" not in section.split('id="faultline-camps"')[1].split("</div>")[0]


def test_the_crux_cards_carry_the_numbers_the_map_and_stand_use(owner_client, debate, cards):
    page = owner_client.get(reverse("debate_results", args=[debate.id])).content.decode()
    cards_column = page.split('id="crux-cards"')[1]
    assert re.findall(r'<p class="crux-kicker">Crux (\d+) ·', cards_column) == ["1", "2"]
