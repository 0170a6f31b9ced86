"""Debates with crux cards, as rows (the atlas reads only finished debates' rows): a debate dealt
from a deck, one room and one card per crux, each persona's side and falsifier on it."""

from __future__ import annotations

from crux.models import CruxCard, CruxRoom
from debates.models import Debate
from debates.services.lifecycle import DebateOptions, debate_create
from debates.state import SUITS


def debate_with_cards(owner, *, topic, personas, deck=None, cards=(), rerun_of=None) -> Debate:
    """cards: [(question, {persona: "YES"|"NO"|"NUANCED"}, {persona: falsifier}, resolved)]."""
    debate = debate_create(
        owner=owner, topic=topic, personas=personas, deck=deck, options=DebateOptions(rerun_of=rerun_of)
    )
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.COMPLETED)
    for index, (question, sides, falsifiers, resolved) in enumerate(cards):
        pair = list(sides)
        room = CruxRoom.objects.create(
            debate=debate,
            persona_a=pair[0],
            persona_b=pair[1],
            question=question,
            suit=SUITS[index % len(SUITS)],
            status=CruxRoom.Status.DONE,
        )
        CruxCard.objects.create(
            room=room,
            debate=debate,
            question=question,
            positions={
                str(p.id): {
                    "name": p.name,
                    "position": side,
                    "reasoning": f"{p.name} has reasons.",
                    "falsifier": falsifiers.get(p, ""),
                }
                for p, side in sides.items()
            },
            disagreement_type="claim",
            diagnosis="They read the same facts differently.",
            resolved=resolved,
            resolution="They settled it." if resolved else "",
        )
    return Debate.objects.get(pk=debate.pk)
