"""Your faultlines across debates: the atlas shows, per recurring crux, where the owner and each
member stood debate after debate, and where they moved."""

import pytest
from django.urls import reverse

from atlas.people import people_tracks
from atlas.recurrence import Appearance
from crux.models import CruxCard
from debates.models import PersonSide
from debates.services.members import debate_member_add, debate_member_remove
from tests.atlas.builders import debate_with_cards
from tests.factories import DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db


def _appearance(card_id: int, debate: str) -> Appearance:
    return Appearance(
        card_id=card_id, debate_id=debate, debate_topic=f"Debate {debate}", question="Q?", sides={}, resolved=False
    )


def test_a_track_marks_each_move_from_the_side_before():
    appearances = [_appearance(1, "a"), _appearance(2, "b"), _appearance(3, "c")]
    sides = {1: {"bob": "YES", "ann": "NO"}, 2: {"bob": "YES"}, 3: {"bob": "NUANCED", "ann": "YES"}}
    tracks = people_tracks(appearances, sides)
    assert [track.name for track in tracks] == ["ann", "bob"]
    ann, bob = tracks
    assert [(s.debate_id, s.side, s.moved) for s in ann.stances] == [("a", "NO", False), ("c", "YES", True)]
    assert [(s.side, s.moved) for s in bob.stances] == [("YES", False), ("YES", False), ("NUANCED", True)]
    assert (ann.moves, bob.moves) == (1, 1)


def test_the_atlas_shows_where_the_team_stood_and_who_moved(owner_client, offline, user, bob, carol, other_user):
    ada, bram = PersonaFactory(name="Ada Hawk"), PersonaFactory(name="Bram Dove")
    deck = DeckFactory(personas=[ada, bram])
    question = "Does scarcity create value?"
    debates = [
        debate_with_cards(
            user, topic=topic, personas=[ada, bram], deck=deck, cards=[(question, {ada: "YES", bram: "NO"}, {}, False)]
        )
        for topic in ["Will Bitcoin replace gold?", "Should a startup buy gold?"]
    ]
    for debate in debates:
        debate_member_add(debate=debate, username="bob")
        debate_member_add(debate=debate, username="carol")
    first, second = (CruxCard.objects.get(debate=debate) for debate in debates)
    for card, person, side in [(first, user, "YES"), (second, user, "NO"), (first, bob, "NO"), (second, bob, "NO")]:
        PersonSide.objects.create(debate=card.debate, user=person, card_id=card.id, side=side)
    PersonSide.objects.create(debate=second.debate, user=carol, card_id=second.id, side="YES")
    debate_member_remove(debate=second.debate, user_id=carol.id)  # removed: shown nowhere
    page = owner_client.get(reverse("atlas")).content.decode()
    people = page.split('class="atlas-people"')[1].split("</ul>")[0]
    alice = people.split('data-person="alice"')[1].split("</li>")[0]
    assert alice.count("stance-yes") == 1 and alice.count("stance-no") == 1 and "moved" in alice
    bob_line = people.split('data-person="bob"')[1].split("</li>")[0]
    assert bob_line.count("stance-no") == 2 and "moved" not in bob_line
    assert 'data-person="carol"' not in people
