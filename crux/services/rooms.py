"""Crux rooms as records: opening one on a disagreement, closing it, judging whether its crux has
surfaced, and writing its crux card. The conversation inside a room is run by
orchestration/rooms.py."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from crux.models import CruxCard, CruxRoom, DisagreementCandidate
from crux.prompts import CARD_INPUT, CRUX_CARD_WRITER, CRUX_EXIT_JUDGE, EXIT_CHECK_INPUT
from crux.schemas import CruxCardDraft, CruxExitCheck
from debates import payloads as p
from debates.models import Message
from debates.services.context import side_work_prompt
from debates.services.events import event_append
from debates.services.transcripts import participant_lines, transcript_of
from debates.state import SUITS
from gateways.llm import gateway
from gateways.llm.prompt_lines import item_line
from gateways.llm.references import Participants
from gateways.llm.types import CallTag, Prompt, Role


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
            payload=p.RoomOpened(
                room_id=room.id,
                persona_a=p.NamedPersona(id=room.persona_a_id, name=room.persona_a.name),
                persona_b=p.NamedPersona(id=room.persona_b_id, name=room.persona_b.name),
                question=room.question,
                suit=room.suit,
                trigger_message_ids=room.trigger_message_ids,
            ),
        )
    return room


def room_dispute_id(room: CruxRoom) -> str:
    """The id a room's question goes by in prompts (an item line, ``[12] question``) and in its
    calls' tags: the tracked dispute's it opened on, the number a disagreement scan knows it by."""
    return str(room.candidate_id) if room.candidate_id is not None else f"room-{room.id}"


def room_close(room: CruxRoom, *, exit_reason: str, failure: str = "") -> None:
    with transaction.atomic():
        room.status = CruxRoom.Status.FAILED if failure else CruxRoom.Status.DONE
        room.exit_reason = exit_reason
        room.failure_reason = failure
        room.finished_at = timezone.now()
        room.save(update_fields=["status", "exit_reason", "failure_reason", "finished_at"])
        event_append(
            debate_id=room.debate_id, payload=p.RoomClosed(room_id=room.id, exit_reason=exit_reason, failure=failure)
        )


def _transcript(room: CruxRoom) -> str:
    messages = (
        Message.objects.filter(room=room, status=Message.Status.COMPLETE).select_related("persona").order_by("turn")
    )
    return transcript_of(messages)


def _room_tag(room: CruxRoom, phase: str) -> CallTag:
    """A room's side call's tag: the room, its two people, its dispute (ids only)."""
    return CallTag(
        debate_id=room.debate_id,
        phase=phase,
        room=room.id,
        participants=(room.persona_a.persona_id, room.persona_b.persona_id),
        items=(room_dispute_id(room),),
    )


def crux_surfaced(room: CruxRoom) -> bool:
    question = item_line(room_dispute_id(room), room.question)
    prompt = Prompt(
        **side_work_prompt(CRUX_EXIT_JUDGE, room.debate),
        messages=[
            {"role": "user", "content": EXIT_CHECK_INPUT.format(question=question, transcript=_transcript(room))}
        ],
        max_tokens=200,
        temperature=0.0,
    )
    check = gateway.extract_or_skip(
        role=Role.JUDGING,
        prompt=prompt,
        schema=CruxExitCheck,
        tag=_room_tag(room, "crux_exit_check"),
        what=f"Exit check in room {room.id}",
    )
    return check is not None and check.surfaced


def card_post(*, debate_id, card: p.Card) -> None:
    """The one writer of crux cards to the event log: crux rooms' cards and graph mode's cruxes."""
    event_append(debate_id=debate_id, payload=p.CardPosted(card=card))


def _room_card(card: CruxCard, room: CruxRoom) -> p.Card:
    return p.Card(
        id=card.id,
        room_id=room.id,
        question=card.question,
        positions=[p.CardPosition(persona_id=int(pid), **data) for pid, data in card.positions.items()],
        disagreement_type=card.disagreement_type,
        diagnosis=card.diagnosis,
        resolved=card.resolved,
        resolution=card.resolution,
        suit=room.suit,
    )


def card_extract(room: CruxRoom) -> CruxCard:
    a, b = room.persona_a, room.persona_b
    content = CARD_INPUT.format(
        people=participant_lines([a, b]),
        question=item_line(room_dispute_id(room), room.question),
        transcript=_transcript(room),
    )
    prompt = Prompt(
        **side_work_prompt(CRUX_CARD_WRITER, room.debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=900,
        temperature=0.2,
    )
    draft = gateway.extract(role=Role.SYNTHESIS, prompt=prompt, schema=CruxCardDraft, tag=_room_tag(room, "crux_card"))
    pair = Participants.of((persona.pk, persona.persona_id, persona.name) for persona in (a, b))
    people = {a.pk: a, b.pk: b}
    positions = {}
    # Each position is the one of the participant its id names; a position naming nobody of the
    # pair (an unknown id, a misspelling) is dropped and logged, never given to a seat by guess.
    for position in draft.positions:
        key = pair.key(position.persona, what=f"The crux card of room {room.id}")
        if key is None or str(key) in positions:
            continue
        persona = people[key]
        positions[str(persona.id)] = {
            "name": persona.name,
            "position": position.position,
            "reasoning": position.reasoning,
            "falsifier": position.falsifier,
        }
    for persona in (a, b):  # a seat its positions did not name: on the card, with nothing said for it
        positions.setdefault(
            str(persona.id), {"name": persona.name, "position": "NUANCED", "reasoning": "", "falsifier": ""}
        )
    with transaction.atomic():
        card = CruxCard.objects.create(
            room=room,
            debate_id=room.debate_id,
            question=draft.question,
            positions=positions,
            disagreement_type=draft.disagreement_type,
            diagnosis=draft.diagnosis,
            resolved=draft.resolved,
            resolution=draft.resolution,
        )
        card_post(debate_id=room.debate_id, card=_room_card(card, room))
        if room.candidate_id:
            # Resolved, or back to active with its crux now known.
            DisagreementCandidate.objects.filter(pk=room.candidate_id).update(
                status=DisagreementCandidate.Status.RESOLVED if card.resolved else DisagreementCandidate.Status.ACTIVE,
                resolution=card.resolution if card.resolved else f"Crux: {card.question}",
            )
    return card
