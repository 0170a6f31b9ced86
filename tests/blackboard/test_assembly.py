"""assemble_context: the seed's sections per phase, and a budget no ledger can blow."""

import pytest

from debates.blackboard.models import BlackboardNotes, PositionState
from debates.budget import Section, estimate_tokens
from debates.models import Message
from debates.services.lifecycle import debate_create
from orchestration.context import EXCHANGE, assemble_context, turn_context, turn_reads
from orchestration.prompts import EARLIER_TITLE
from orchestration.recalling import EARLIER_TOKENS
from tests.factories import PersonaFactory

# The assembly of a turn's context, read as worded: these tests see the original prompts.
pytestmark = [pytest.mark.django_db, pytest.mark.original_prompts]

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


def test_every_turn_is_told_the_question_the_verdict_is_about(debate):
    debate, personas = debate
    debate.topic, debate.decided_on = "What should savers do about inflation?", "Should a saver hold gold?"
    debate.save()
    for phase in ("opening", "reply", "closing"):
        context = assemble_context(debate=debate, persona=personas[0], phase=phase, aspect_index=0)
        assert "Topic: What should savers do about inflation?" in context
        assert "Decided on: Should a saver hold gold? (say where you stand on it: yes, no," in context

    # A yes/no topic is its own question: it is said once, as the topic.
    debate.topic = debate.decided_on
    debate.save()
    assert "Decided on" not in assemble_context(debate=debate, persona=personas[0], phase="opening")


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


# ── the blocks a reply is sent in (orchestration/context.py: Epoch) ─────────────────────────


def say(debate, persona, turn, *, text=None, aspect_index=1, ledgered=True):
    return Message.objects.create(
        debate=debate,
        persona=persona,
        kind="reply",
        aspect_index=aspect_index,
        turn=turn,
        text=text or f"Point {turn}: the record over several cycles says otherwise, and here is why.",
        status="complete",
        ledgered=ledgered,
    )


def reply_context(debate, persona, view=None, aspect_index=1):
    recent = list(Message.objects.filter(debate=debate, room=None).select_related("persona").order_by("turn"))
    reads = turn_reads(
        debate=debate, persona=persona, phase="reply", aspect_index=aspect_index, recent=recent[-8:], view=view
    )
    return turn_context(
        debate=debate, persona=persona, phase="reply", aspect_index=aspect_index, recent=recent[-16:], reads=reads
    )


def test_between_two_moves_of_the_anchor_a_persona_s_lead_only_grows(debate):
    debate, personas = debate
    ada = personas[0]
    PositionState.objects.create(debate=debate, persona=ada, overall_stance="Gold protects savers.")
    for turn in range(1, 4):
        say(debate, personas[turn % 3], turn)
    first = reply_context(debate, ada)
    PositionState.objects.filter(persona=ada).update(overall_stance="Gold protects savers, mostly.")
    for turn in range(4, 7):
        say(debate, personas[turn % 3], turn)
    second = reply_context(debate, ada, view=first.epoch)

    assert second.lead[: len(first.lead)] == first.lead, "what the first call sent is sent again, byte for byte"
    assert len(second.lead) == len(first.lead) + 3  # one block per new message
    assert "Gold protects savers." in second.lead[0], "the blackboard stays as of its anchor"
    assert all(f"Point {turn}:" in second.text for turn in range(1, 7)), "and the exchange since shows every turn"


def test_the_anchor_moves_at_a_new_aspect_and_when_the_exchange_outgrows_its_budget(debate):
    debate, personas = debate
    ada = personas[0]
    for turn in range(1, 4):
        say(debate, personas[turn % 3], turn)
    view = reply_context(debate, ada).epoch

    assert reply_context(debate, ada, view=view, aspect_index=0).epoch != view  # a new aspect
    for turn in range(4, 40):
        say(debate, personas[turn % 3], turn)
    moved = reply_context(debate, ada, view=view)
    assert moved.epoch.anchor > view.anchor
    assert estimate_tokens("".join(moved.lead[1:])) <= EXCHANGE


def test_a_new_anchor_never_passes_a_message_the_ledger_has_not_folded(debate):
    debate, personas = debate
    long = "a very long clause that goes on " * 20  # clipped: three of them fill the recent exchange
    for turn in range(1, 9):
        say(debate, personas[turn % 3], turn, text=f"Point {turn}: {long}", ledgered=turn < 5)

    context = reply_context(debate, personas[0])

    assert context.epoch.anchor == 5, "turn 5 is in no ledger yet: it stays in the exchange"
    assert all(f"Point {turn}:" in context.text for turn in (5, 6, 7, 8))
    Message.objects.filter(turn=5).update(ledgered=True)
    assert reply_context(debate, personas[0]).epoch.anchor == 6


@pytest.mark.parametrize("phase", ["key_argument", "reply"])
def test_what_a_call_cannot_read_from_the_cache_stays_within_the_budget(debate, phase):
    """A new anchor sends everything after the system prefix: within LIMIT. Later calls send
    more (the exchange grows), but what their previous call did not send is within LIMIT too."""
    debate, personas = debate
    huge_ledger(debate, personas)
    for persona in personas:
        recent = list(Message.objects.filter(debate=debate).select_related("persona").order_by("turn"))
        reads = turn_reads(debate=debate, persona=persona, phase=phase, aspect_index=1, recent=recent[-8:])
        first = turn_context(
            debate=debate, persona=persona, phase=phase, aspect_index=1, recent=recent[-16:], reads=reads
        )
        assert user_part(first.text) <= LIMIT
        for turn in range(61, 64):
            say(debate, personas[turn % 3], turn, text="a very long clause that goes on " * 24)
        recent = list(Message.objects.filter(debate=debate).select_related("persona").order_by("turn"))
        reads = turn_reads(
            debate=debate, persona=persona, phase="reply", aspect_index=1, recent=recent[-8:], view=first.epoch
        )
        later = turn_context(
            debate=debate, persona=persona, phase="reply", aspect_index=1, recent=recent[-16:], reads=reads
        )
        assert later.lead[: len(first.lead)] == first.lead
        assert user_part(later.text[len("".join(first.lead)) :]) <= LIMIT
        assert "── YOUR TURN ──" in later.tail
        Message.objects.filter(turn__gt=60).delete()


def test_what_a_turn_recalls_of_earlier_turns_comes_after_the_cached_blocks_within_its_budget(debate):
    debate, personas = debate
    for turn in range(1, 4):
        say(debate, personas[turn % 3], turn)
    earlier = Section(EARLIER_TITLE, EARLIER_TOKENS)
    earlier.add("Turn 1, Bram Macro: real rates decide it. " * 40, max_line_tokens=EARLIER_TOKENS - 10)
    recent = list(Message.objects.filter(debate=debate).select_related("persona").order_by("turn"))
    reads = turn_reads(
        debate=debate, persona=personas[0], phase="reply", aspect_index=1, recent=recent, earlier=lambda: earlier
    )

    context = turn_context(
        debate=debate, persona=personas[0], phase="reply", aspect_index=1, recent=recent, reads=reads
    )

    assert f"── {EARLIER_TITLE} ──" in context.tail and EARLIER_TITLE not in "".join(context.lead)
    assert context.tail.index(EARLIER_TITLE) < context.tail.index("── YOUR TURN ──")
    assert estimate_tokens(earlier.render()) <= EARLIER_TOKENS
