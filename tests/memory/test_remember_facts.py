"""What a finished debate leaves as candidate facts, read from its participants' ledgers, and how a
point an earlier debate already left is merged instead of stored twice (real offline embedder)."""

import pytest

from debates.blackboard.models import BlackboardNotes, PositionState
from debates.services.lifecycle import debate_create
from memory.models import Insight
from memory.services.insights import insights_remember
from projects.models import Project

pytestmark = pytest.mark.django_db

POINT = "Gold pays no yield."


@pytest.fixture
def thesis(alice):
    return Project.objects.create(owner=alice, name="Thesis")


def finished(owner, project, personas, ledgers, *, decisions=()):
    """A debate whose participants' final ledgers hold ``ledgers`` (seat -> agreed texts)."""
    debate = debate_create(
        owner=owner, topic="Should central banks hold more gold?", personas=personas, context=project
    )
    for seat, texts in ledgers.items():
        other = personas[1 - seat]
        PositionState.objects.create(
            debate=debate, persona=personas[seat], agreements=[{"with": other.id, "on": t} for t in texts]
        )
    BlackboardNotes.objects.create(debate=debate, decisions=list(decisions))
    return debate


def test_one_sides_ledger_leaves_an_insight_not_a_candidate_fact(offline, alice, thesis, personas):
    decision = "Central banks should keep gold below a fifth of their reserves."
    debate = finished(alice, thesis, personas, {0: [POINT]}, decisions=[decision])

    saved = {i.text: i for i in insights_remember(debate=debate)}

    assert not saved[POINT].agreed_by_all and saved[POINT].review == ""
    assert not saved[decision].agreed_by_all and saved[decision].review == ""
    assert not any(i.established for i in saved.values())


def test_a_point_both_ledgers_hold_is_a_candidate_fact_until_confirmed(offline, alice, thesis, personas):
    debate = finished(alice, thesis, personas, {0: [POINT], 1: ["gold pays no yield"]})

    (saved,) = insights_remember(debate=debate)

    assert saved.agreed_by_all and saved.review == "candidate" and not saved.established


def test_the_same_point_from_a_later_debate_is_merged_not_stored_twice(offline, alice, thesis, personas):
    first = finished(alice, thesis, personas, {0: [POINT]})
    insights_remember(debate=first)
    second = finished(alice, thesis, personas, {0: ["gold pays no yield"], 1: ["Gold pays no yield"]})

    assert insights_remember(debate=second) == []
    insights_remember(debate=second)  # a resumed run comes twice: still one row

    (kept,) = Insight.objects.filter(owner=alice)
    assert kept.debate_id == first.id and kept.text == POINT
    assert kept.agreed_by_all and kept.review == "candidate"  # everyone held it the second time

    # Another project keeps its own copy.
    garden = Project.objects.create(owner=alice, name="Garden")
    insights_remember(debate=finished(alice, garden, personas, {0: [POINT], 1: [POINT]}))
    assert sorted(Insight.objects.values_list("project__name", flat=True)) == ["Garden", "Thesis"]


def test_a_point_the_owner_rejected_stays_rejected_when_it_comes_again(offline, alice, thesis, personas):
    first = finished(alice, thesis, personas, {0: [POINT], 1: [POINT]})
    (rejected,) = insights_remember(debate=first)
    Insight.objects.filter(pk=rejected.pk).update(review="rejected")

    insights_remember(debate=finished(alice, thesis, personas, {0: [POINT], 1: [POINT]}))

    assert list(Insight.objects.values_list("review", flat=True)) == ["rejected"]
