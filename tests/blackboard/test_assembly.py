"""assemble_context: the seed's sections per phase, and a budget no ledger can blow."""

import pytest

from debates.blackboard.models import BlackboardNotes, PositionState
from debates.budget import estimate_tokens
from debates.models import Message
from debates.services.lifecycle import debate_create
from orchestration.context import assemble_context
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db

LIMIT = 1500


@pytest.fixture
def debate():
    personas = [PersonaFactory(name=name) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]
    debate = debate_create(owner=None, topic="Is gold still a store of value?", personas=personas)
    debate.aspects = [
        {"label": "Evidence", "description": "What the record shows."},
        {"label": "Policy", "description": "What central banks do."},
    ]
    debate.save()
    return debate, personas


def huge_ledger(debate, personas):
    """Every list full and every text as long as the schema allows, plus 60 long messages."""
    long = "a very long clause that goes on " * 8
    for persona in personas:
        others = [p for p in personas if p != persona]
        PositionState.objects.create(
            debate=debate,
            persona=persona,
            overall_stance=long[:240],
            aspect_positions={
                str(i): {
                    "position": long[:240],
                    "evidence": [f"{long[:200]} {j}" for j in range(8)],
                    "challenged": [f"{long[:240]} {j}" for j in range(8)],
                }
                for i in range(2)
            },
            agreements=[{"with": o.id, "on": long[:200]} for o in others],
            disagreements=[{"with": o.id, "on": long[:200], "intensity": "strong"} for o in others],
            concessions=[f"concession {j}: {long[:200]}" for j in range(12)],
            shifts=[long[:240]] * 8,
        )
    BlackboardNotes.objects.create(
        debate=debate,
        rolling_summary=long * 3,
        decisions=[long[:240]] * 4,
        proposals=[{"by": "Bram Macro", "proposal": long[:240], "reactions": {"Ada Hardmoney": "opposes: " + long}}]
        * 3,
    )
    for turn in range(1, 61):
        Message.objects.create(
            debate=debate,
            persona=personas[turn % 3],
            kind="reply",
            aspect_index=1,
            turn=turn,
            text=long * 3,
            status="complete",
        )


def user_part(context: str) -> int:
    return estimate_tokens(context)


def test_the_opening_is_a_cold_start(debate):
    debate, personas = debate
    context = assemble_context(debate=debate, persona=personas[0], phase="opening")
    assert "Aspects to come: Evidence; Policy" in context and "Ada Hardmoney (you)" in context
    assert "WHERE EVERYONE STANDS" not in context


def test_a_reply_shows_every_section_of_the_seed(debate):
    debate, personas = debate
    ada, bram, _ = personas
    PositionState.objects.create(
        debate=debate,
        persona=ada,
        overall_stance="Gold protects savers.",
        aspect_positions={
            "0": {"position": "", "evidence": ["the 1970s data"], "challenged": ["Does it apply after 1980?"]}
        },
        concessions=["gold pays no yield"],
    )
    PositionState.objects.create(
        debate=debate,
        persona=bram,
        overall_stance="Liquidity decides.",
        disagreements=[{"with": ada.id, "on": "the 1970s", "intensity": "strong"}],
    )
    BlackboardNotes.objects.create(
        debate=debate,
        decisions=["inflation hurts savers"],
        proposals=[{"by": "Bram Macro", "proposal": "look at real rates", "reactions": {"Ada Hardmoney": "opposes"}}],
    )
    Message.objects.create(
        debate=debate,
        persona=bram,
        kind="reply",
        aspect_index=0,
        turn=1,
        text="The 1970s prove nothing.",
        status="complete",
    )

    context = assemble_context(debate=debate, persona=ada, phase="reply", aspect_index=0, addressee="Bram Macro")

    for heading in (
        "DEBATE STATE",
        "SO FAR",
        "WHERE EVERYONE STANDS",
        "YOUR POSITION SO FAR",
        "RECENT EXCHANGE",
        "YOUR TURN",
    ):
        assert f"── {heading} ──" in context
    assert "Current aspect (1 of 2): Evidence" in context
    assert "Agreed: inflation hurts savers" in context and "look at real rates (Ada Hardmoney opposes)" in context
    assert "Bram Macro: Liquidity decides." in context and "disagrees with you on: the 1970s" in context
    assert "Challenges you haven't answered: Does it apply after 1980?" in context
    assert "You've conceded: gold pays no yield" in context and "Evidence you've cited: the 1970s data" in context
    assert "Bram Macro: The 1970s prove nothing." in context


@pytest.mark.parametrize("phase", ["key_argument", "reply", "closing"])
def test_no_ledger_blows_the_budget(debate, phase):
    debate, personas = debate
    huge_ledger(debate, personas)
    for persona in personas:
        context = assemble_context(debate=debate, persona=persona, phase=phase, aspect_index=1, addressee="Bram Macro")
        assert user_part(context) <= LIMIT, f"{phase} context for {persona.name}: {user_part(context)} tokens"
        assert "── YOUR TURN ──" in context, "the instructions are never squeezed out"


def test_the_closing_lists_every_concession_even_past_the_recent_window(debate):
    debate, personas = debate
    ada = personas[0]
    PositionState.objects.create(debate=debate, persona=ada, concessions=[f"point {i}" for i in range(10)])
    context = assemble_context(debate=debate, persona=personas[1], phase="closing", aspect_index=1)
    assert all(f"Ada Hardmoney: point {i}" in context for i in range(10))
