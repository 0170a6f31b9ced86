"""What ``rundebate`` prints of a debate (``print_debate``): its transcript, its crux rooms, then
what its mode prints after them, shared by the modes' printers.

A mode's spec row (debates/modes.py) names its printer, ``print_<x>(debate, write)``, by dotted
path; a mode with none gets ``print_outcome``. ``write`` prints one line.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.module_loading import import_string

from debates.models import Debate, Message
from debates.modes import mode_find
from debates.regime import CRUX_WORDS, verdict_sentence

Write = Callable[[str], None]

# What the transcript says for an output whose speaker said nothing (Message.unanswered): a note in
# brackets, never words in the speaker's mouth.
UNANSWERED_NOTES = {
    Message.Unanswered.WROTE_NOTHING: "[wrote nothing this round]",
    Message.Unanswered.CALL_FAILED: "[could not answer: its model call failed]",
}


def print_debate(debate: Debate, write: Write) -> None:
    """The whole printout: the topic, the main channel with the owner's interjections where they
    were taken up, each crux room with its card, the verdict sentence, then the mode's own lines."""
    write(f"# {debate.topic}\n")
    interjections = {}  # turn that took it up -> the owner's interjections (manage.py interject)
    for interjection in debate.interjections.select_related("to_persona").order_by("seq"):
        interjections.setdefault(interjection.read_at_turn, []).append(interjection)
    for message in (
        Message.objects.filter(debate=debate, room__isnull=True)
        .exclude(kind=Message.Kind.ARTIFACT)  # printed whole, last
        .select_related("persona")
        .order_by("turn")
    ):
        for interjection in interjections.pop(message.turn, []):
            to = f" to {interjection.to_persona.name}" if interjection.to_persona else ""
            write(f"[   ] The owner ({interjection.kind}{to}): {interjection.text}")
        said = UNANSWERED_NOTES.get(message.unanswered, message.text)
        write(f"[{message.turn:>3}] {message.persona.name} ({message.kind}): {said}")
    for room in debate.crux_rooms.select_related("persona_a", "persona_b").order_by("created_at"):
        write(f"\n## Crux room {room.suit}: {room.persona_a.name} vs {room.persona_b.name} — {room.question}")
        for message in room.messages.select_related("persona").order_by("turn"):
            write(f"  [{message.turn:>2}] {message.persona.name}: {message.text}")
        card = getattr(room, "card", None)
        if card is not None:
            write(f"  CRUX CARD {room.suit} {card.question} [{card.disagreement_type}]")
            for position in card.positions.values():
                write(
                    f"    {position['name']}: {position['position']} — {position['reasoning']} "
                    f"(would change mind if: {position['falsifier']})"
                )
            write(f"    diagnosis: {card.diagnosis}")
    spec = mode_find(debate.mode)
    if sentence := verdict_sentence(results=debate.results, status=debate.status):
        write(f"\nWhere it landed: {sentence}")  # the sentence the page and the exports say
    printer = import_string(spec.printer) if spec is not None and spec.printer else print_outcome
    printer(debate, write)


def print_verdict(results: dict, write: Write) -> None:
    """What the verdict is about and what it rests on. The verdict itself is the one sentence
    ``rundebate`` prints before this ("Where it landed: ...", debates/regime.py verdict_sentence):
    never a label of its own here, so the terminal says what the page says."""
    if question := results.get("decided_on"):
        write(f"Decided on: {question}")
    for crux in results.get("per_crux") or []:
        write(f"  PER CRUX: {crux.get('question', '')} — {CRUX_WORDS.get(crux.get('agreement'), 'not read')}")
    if basis := results.get("regime_basis"):
        write(basis)


def print_outcome(debate: Debate, write: Write) -> None:
    """The verdict, then the status."""
    if debate.results:
        print_verdict(debate.results, write)
    write(f"Status: {debate.status}")
