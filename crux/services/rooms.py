"""Crux rooms: two personas argue one dispute until its crux surfaces (or the cap), then a card.

A room is a conversation, not a pipeline: entry statements, then alternating free exchange in
which each answers what the other just said, with a cheap exit check after every exchange.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from crux.models import CruxCard, CruxRoom, DisagreementCandidate
from crux.schemas import CruxCardDraft, CruxExitCheck
from debates.blackboard.assembly import assemble_context
from debates.models import Debate, Message, Participant
from debates.orchestrator.speaking import Speaker, speak
from debates.prompts import CRUX_CARD_WRITER, CRUX_EXIT_JUDGE
from debates.services.events import event_append
from debates.services.transcripts import transcript_of
from debates.state import SUITS, EventKind
from faultline.llm import gateway
from faultline.llm.types import CallTag, ModelError, Prompt, Role

logger = logging.getLogger(__name__)


def room_open(*, candidate: DisagreementCandidate) -> CruxRoom:
    with transaction.atomic():
        index = CruxRoom.objects.filter(debate_id=candidate.debate_id).count()
        room = CruxRoom.objects.create(
            debate_id=candidate.debate_id,
            candidate=candidate,
            persona_a=candidate.persona_a,
            persona_b=candidate.persona_b,
            question=candidate.dispute,
            trigger_message_ids=candidate.source_message_ids,
            suit=SUITS[index % len(SUITS)],
        )
        DisagreementCandidate.objects.filter(pk=candidate.pk).update(status=DisagreementCandidate.Status.IN_CRUX_ROOM)
        event_append(
            debate_id=room.debate_id,
            kind=EventKind.ROOM_OPENED,
            payload={
                "room_id": room.id,
                "persona_a": {"id": room.persona_a_id, "name": room.persona_a.name},
                "persona_b": {"id": room.persona_b_id, "name": room.persona_b.name},
                "question": room.question,
                "suit": room.suit,
                "trigger_message_ids": room.trigger_message_ids,
            },
        )
    return room


def _room_close(room: CruxRoom, *, exit_reason: str, failure: str = "") -> None:
    with transaction.atomic():
        room.status = CruxRoom.Status.FAILED if failure else CruxRoom.Status.DONE
        room.exit_reason = exit_reason
        room.failure_reason = failure
        room.finished_at = timezone.now()
        room.save(update_fields=["status", "exit_reason", "failure_reason", "finished_at"])
        event_append(
            debate_id=room.debate_id,
            kind=EventKind.ROOM_CLOSED,
            payload={"room_id": room.id, "exit_reason": exit_reason, "failure": failure},
        )


def _transcript(room: CruxRoom) -> str:
    messages = Message.objects.filter(room=room, status=Message.Status.COMPLETE).select_related("persona").order_by("turn")
    return transcript_of(messages)


def _crux_surfaced(room: CruxRoom) -> bool:
    prompt = Prompt(
        system_prefix=CRUX_EXIT_JUDGE,
        messages=[{"role": "user", "content": f'Disagreement: "{room.question}"\n\n{_transcript(room)}'}],
        max_tokens=200,
        temperature=0.0,
    )
    check = gateway.extract_or_skip(role=Role.JUDGING, prompt=prompt, schema=CruxExitCheck,
                                    tag=CallTag(debate_id=room.debate_id, phase="crux_exit_check"),
                                    what=f"Exit check in room {room.id}")
    return check is not None and check.surfaced


def card_payload(card: CruxCard, room: CruxRoom) -> dict:
    return {
        "id": card.id,
        "room_id": room.id,
        "question": card.question,
        "positions": [{"persona_id": int(pid), **data} for pid, data in card.positions.items()],
        "disagreement_type": card.disagreement_type,
        "diagnosis": card.diagnosis,
        "resolved": card.resolved,
        "resolution": card.resolution,
        "suit": room.suit,
    }


def _card_extract(room: CruxRoom) -> CruxCard:
    a, b = room.persona_a, room.persona_b
    prompt = Prompt(
        system_prefix=CRUX_CARD_WRITER,
        messages=[{"role": "user", "content": f"People: {a.name}, {b.name}\nDisagreement that opened the room: "
                                               f'"{room.question}"\n\nCONVERSATION\n{_transcript(room)}'}],
        max_tokens=900,
        temperature=0.2,
    )
    draft = gateway.extract(role=Role.SYNTHESIS, prompt=prompt, schema=CruxCardDraft,
                            tag=CallTag(debate_id=room.debate_id, phase="crux_card"))
    by_name = {a.name.lower(): a, b.name.lower(): b}
    positions = {}
    for position, fallback in zip(draft.positions, (a, b)):
        persona = by_name.get(position.persona.strip().lower(), fallback)
        positions[str(persona.id)] = {
            "name": persona.name, "position": position.position,
            "reasoning": position.reasoning, "falsifier": position.falsifier,
        }
    for persona in (a, b):  # the model named one person twice: keep both seats on the card
        positions.setdefault(str(persona.id), {"name": persona.name, "position": "NUANCED", "reasoning": "", "falsifier": ""})
    with transaction.atomic():
        card = CruxCard.objects.create(
            room=room, debate_id=room.debate_id, question=draft.question, positions=positions,
            disagreement_type=draft.disagreement_type, diagnosis=draft.diagnosis,
            resolved=draft.resolved, resolution=draft.resolution,
        )
        event_append(debate_id=room.debate_id, kind=EventKind.CARD_POSTED, payload={"card": card_payload(card, room)})
        if room.candidate_id:
            # Resolved, or back to active with its crux now known.
            DisagreementCandidate.objects.filter(pk=room.candidate_id).update(
                status=DisagreementCandidate.Status.RESOLVED if card.resolved else DisagreementCandidate.Status.ACTIVE,
                resolution=card.resolution if card.resolved else f"Crux: {card.question}",
            )
    return card


def room_run(*, room_id: int, after_message=None) -> None:
    """after_message(message) is called for each finished turn (the orchestrator's ledger hook)."""
    room = CruxRoom.objects.select_related("debate", "persona_a", "persona_b").get(pk=room_id)
    if room.status != CruxRoom.Status.LIVE:
        return
    debate = room.debate
    seats = dict(Participant.objects.filter(debate=debate).values_list("persona_id", "seat"))
    speakers = [Speaker(room.persona_a, seats[room.persona_a_id]), Speaker(room.persona_b, seats[room.persona_b_id])]
    cap = settings.CRUX_ROOM_MAX_TURNS
    try:
        exit_reason = _converse(room, debate, speakers, cap, after_message)
        if exit_reason == CruxRoom.ExitReason.STOPPED:
            _room_close(room, exit_reason=exit_reason)
            return
        _card_extract(room)
        _room_close(room, exit_reason=exit_reason)
    except ModelError as exc:
        logger.warning("Crux room %s failed: %s", room.id, exc)
        _room_close(room, exit_reason="failed", failure=str(exc))


def _converse(room: CruxRoom, debate: Debate, speakers: list[Speaker], cap: int, after_message) -> str:
    done = list(Message.objects.filter(room=room, status=Message.Status.COMPLETE).order_by("turn"))
    interrupted = Message.objects.filter(room=room, status=Message.Status.STREAMING).first()
    turn = len(done)
    while turn < cap:
        if Debate.objects.filter(pk=debate.pk, stop_requested=True).exists():
            return CruxRoom.ExitReason.STOPPED
        speaker = speakers[turn % 2]
        other = speakers[1 - turn % 2]
        kind = Message.Kind.ENTRY if turn < 2 else Message.Kind.EXCHANGE
        message = speak(
            debate=debate, speaker=speaker, kind=kind, turn=turn + 1, room=room, phase=f"crux_room_{kind}",
            context=assemble_context(debate=debate, persona=speaker.persona, phase=kind, room=room, other=other.persona),
            interrupted=interrupted,
        )
        if after_message is not None:
            after_message(message)
        interrupted = None
        turn += 1
        # An exchange is one answer from each side, after the two entry statements.
        if turn >= 4 and turn % 2 == 0 and _crux_surfaced(room):
            return CruxRoom.ExitReason.SURFACED
    return CruxRoom.ExitReason.CAP
