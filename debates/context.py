"""What a persona sees on its turn: the turn's user message, assembled from persisted state.

Kept small on purpose (recent exchange verbatim, the debate's frame, crux cards so far); the
position-ledger blackboard of the memory work will extend this.
"""

from __future__ import annotations

from debates.models import Debate, Message
from debates.prompts import TURN_INSTRUCTIONS
from crux.models import CruxCard

RECENT_MESSAGES = 8


def _transcript(messages) -> str:
    return "\n".join(f"{m.persona.name}: {m.text}" for m in messages) or "(nothing said yet)"


def main_channel_recent(debate: Debate, limit: int = RECENT_MESSAGES) -> list[Message]:
    recent = (
        Message.objects.filter(debate=debate, room__isnull=True, status=Message.Status.COMPLETE)
        .select_related("persona")
        .order_by("-turn")[:limit]
    )
    return list(reversed(recent))


def turn_context(
    *, debate: Debate, persona, kind: str, addressee: str = "", aspect_index: int | None = None
) -> str:
    names = [p.name for p in debate.personas.order_by("participant__seat")]
    lines = [f"DEBATE TOPIC: {debate.topic}"]
    if aspect_index is not None and debate.aspects:
        aspect = debate.aspects[aspect_index]
        lines.append(f"Current aspect ({aspect_index + 1} of {len(debate.aspects)}): {aspect['label']} — {aspect['description']}")
    lines.append("Participants: " + ", ".join(f"{n} (you)" if n == persona.name else n for n in names))
    if kind != "opening":
        lines += ["", "RECENT EXCHANGE", _transcript(main_channel_recent(debate))]
    cards = list(CruxCard.objects.filter(debate=debate))
    if cards:
        lines += ["", "CRUXES FOUND SO FAR"]
        for card in cards:
            stances = ", ".join(f"{p['name']}: {p['position']}" for p in card.positions.values())
            lines.append(f"- {card.question} ({stances})")
    lines += ["", "YOUR TURN", TURN_INSTRUCTIONS[kind].format(addressee=addressee or "the others", question="")]
    return "\n".join(lines)


def room_context(*, room, persona, other, kind: str) -> str:
    triggers = (
        Message.objects.filter(id__in=room.trigger_message_ids).select_related("persona").order_by("turn")
    )
    exchange = Message.objects.filter(room=room, status=Message.Status.COMPLETE).select_related("persona").order_by("turn")
    lines = [
        f"DEBATE TOPIC: {room.debate.topic}",
        f'SIDE ROOM: you ({persona.name}) and {other.name}, on one question: "{room.question}"',
        "",
        "WHAT WAS SAID IN THE MAIN DEBATE THAT LED HERE",
        _transcript(triggers),
    ]
    if kind != "entry":
        lines += ["", "THIS ROOM SO FAR", _transcript(exchange)]
    lines += ["", "YOUR TURN", TURN_INSTRUCTIONS[kind].format(addressee=other.name, question=room.question)]
    return "\n".join(lines)
