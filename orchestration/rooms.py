"""The conversation in a crux room: two personas argue one dispute until its crux surfaces (or the
cap), then a card.

A room is a conversation, not a pipeline: entry statements, then alternating free exchange in
which each answers what the other just said, with a cheap exit check after every exchange.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings

from crux.models import CruxRoom
from crux.services.rooms import card_extract, crux_surfaced, room_close, room_dispute_id
from debates.models import Debate, Message, Participant
from gateways.llm.types import ModelError
from orchestration.context import Seating, room_turn_context
from orchestration.lanes import RunCancelled
from orchestration.patience import patiently
from orchestration.recalling import bridge_section
from orchestration.speaking import Speaker, TurnRequest, speak

logger = logging.getLogger(__name__)


def room_run(*, room_id: int, after_message=None, cancelled: threading.Event | None = None) -> None:
    """after_message(message) is called for each finished turn (the orchestrator's ledger hook).

    A model outage is waited out here, inside the room, like the main channel waits it out; a
    cancelled run leaves the room live, for the next run to carry on."""
    room = CruxRoom.objects.select_related("debate", "persona_a", "persona_b").get(pk=room_id)
    if room.status != CruxRoom.Status.LIVE:
        return
    debate = room.debate
    participants = Participant.objects.filter(debate=debate).order_by("seat")
    participants = list(participants.values_list("persona_id", "seat", "persona__name", "persona__persona_id"))
    seats = {persona_id: seat for persona_id, seat, _, _ in participants}
    # In seat order, for every turn: names and persona ids (a prompt's participant lines, a call's tag).
    seating = Seating(
        names={persona_id: name for persona_id, _, name, _ in participants},
        handles={persona_id: handle for persona_id, _, _, handle in participants},
    )
    speakers = [Speaker(room.persona_a, seats[room.persona_a_id]), Speaker(room.persona_b, seats[room.persona_b_id])]
    cap = settings.CRUX_ROOM_MAX_TURNS
    bridge = bridge_section(debate=debate, room=room)  # once: the same earlier cards on every turn
    try:
        exit_reason = patiently(
            lambda: _converse(room, speakers, seating, cap, after_message, cancelled, bridge),
            cancelled=cancelled,
        )
        if exit_reason != CruxRoom.ExitReason.STOPPED:
            patiently(lambda: card_extract(room), cancelled=cancelled)
        room_close(room, exit_reason=exit_reason)
    except ModelError as exc:
        if cancelled is not None and cancelled.is_set():
            return  # the run ended while the model was away: the room stays live for the next run
        logger.warning("Crux room %s failed: %s", room.id, exc)
        room_close(room, exit_reason="failed", failure=str(exc))


def _converse(
    room: CruxRoom,
    speakers: list[Speaker],
    seating: Seating,
    cap: int,
    after_message,
    cancelled,
    bridge=None,
) -> str:
    debate = room.debate
    done = list(Message.objects.filter(room=room, status=Message.Status.COMPLETE).order_by("turn"))
    interrupted = Message.objects.filter(room=room, status=Message.Status.STREAMING).first()
    turn = max((message.turn for message in done), default=0)  # a turn left unsaid leaves a gap
    while turn < cap:
        if cancelled is not None and cancelled.is_set():
            raise RunCancelled(f"crux room {room.id}: the run is over")
        if Debate.objects.filter(pk=debate.pk, stop_requested=True).exists():
            return CruxRoom.ExitReason.STOPPED
        speaker = speakers[turn % 2]
        other = speakers[1 - turn % 2]
        kind = Message.Kind.ENTRY if turn < 2 else Message.Kind.EXCHANGE
        context = room_turn_context(
            debate=debate,
            persona=speaker.persona,
            phase=kind,
            room=room,
            other=other.persona,
            seating=seating,
            bridge=bridge,
        )
        request = TurnRequest(
            speaker,
            kind,
            phase=f"crux_room_{kind}",
            context=context.text,
            context_lead=context.lead,
            turn=turn + 1,
            room=room,
            addressee=other.name,
            addressee_id=other.persona.persona_id,
            participants=tuple(seating.handles.values()),
            items=(room_dispute_id(room),),
        )
        message = speak(
            debate, request, interrupted=interrupted, cancelled=cancelled, names=list(seating.names.values())
        )
        if after_message is not None and message is not None:  # None: the turn said nothing (speak)
            after_message(message)
        interrupted = None
        turn += 1
        # An exchange is one answer from each side, after the two entry statements.
        if turn >= 4 and turn % 2 == 0 and crux_surfaced(room):
            return CruxRoom.ExitReason.SURFACED
    return CruxRoom.ExitReason.CAP
