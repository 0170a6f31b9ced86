"""Persisting utterances: each start, pass and completion is an event in the debate's log."""

from __future__ import annotations

from django.db import connection, transaction

from debates import broadcast
from debates.models import Debate, Message
from debates.payloads import (
    Citation,
    MessageCompleted,
    MessageStarted,
    MessageWithdrawn,
    Totals,
    TurnPassed,
    TurnRequested,
)
from debates.services.events import event_append
from gateways.llm.selectors import debate_spend


def debate_totals(debate_id) -> Totals:
    cost = debate_spend(debate_id=debate_id)
    return Totals(
        input_tokens=cost["input_tokens"],
        output_tokens=cost["output_tokens"],
        cost=str(cost["cost"]),
        cache_creation_tokens=cost["cache_creation_tokens"],
        cache_read_tokens=cost["cache_read_tokens"],
    )


def _started(message: Message, seat: int) -> MessageStarted:
    return MessageStarted(
        message_id=message.id,
        persona_id=message.persona.id,
        persona_name=message.persona.name,
        seat=seat,
        kind=message.kind,
        turn=message.turn,
        room_id=message.room_id,
        aspect_index=message.aspect_index,
    )


def turn_request_announce(*, debate: Debate, persona, seat: int, kind: str, room=None) -> None:
    """A speaker's model call went out: the page says who it waits for until the first words
    arrive (message_begin). One event per turn asked, never per token."""
    event_append(
        debate_id=debate.id,
        payload=TurnRequested(
            persona_id=persona.id,
            persona_name=persona.name,
            seat=seat,
            kind=kind,
            room_id=room.id if room is not None else None,
        ),
    )


def message_begin(*, debate: Debate, persona, seat: int, kind: str, turn: int, room=None, aspect_index=None) -> Message:
    with transaction.atomic():
        message = Message.objects.create(
            debate=debate, room=room, persona=persona, kind=kind, turn=turn, aspect_index=aspect_index
        )
        event_append(debate_id=debate.id, payload=_started(message, seat))
    return message


def message_finish(
    *, message: Message, text: str, citations: list[Citation] = (), cut_off: bool = False, unanswered: str = ""
) -> None:
    """citations: the passages of the speaker's own corpus the turn leaned on (already checked
    against what the turn was given, see orchestration/citing.py). cut_off: the token limit cut
    the reply short (``text`` already ends at its last whole sentence). unanswered: why the
    speaker said nothing (Message.Unanswered); the message is then finished with no text at all."""
    text = "" if unanswered else text
    with transaction.atomic():
        message.text = text
        message.status = Message.Status.COMPLETE
        message.citations = [citation.model_dump() for citation in citations]
        message.cut_off = cut_off
        message.unanswered = unanswered
        message.save(update_fields=["text", "status", "citations", "cut_off", "unanswered"])
        event_append(
            debate_id=message.debate_id,
            payload=MessageCompleted(
                message_id=message.id,
                text=text,
                citations=list(citations),
                cut_off=cut_off,
                unanswered=unanswered,
                totals=debate_totals(message.debate_id),
            ),
        )


def message_withdraw(*, message: Message) -> None:
    """Take back a turn that was shown while it streamed but said nothing usable in the end: its
    row goes, and the page drops it (no placeholder stands in for it)."""
    with transaction.atomic():
        Message.objects.filter(pk=message.pk).delete()
        event_append(debate_id=message.debate_id, payload=MessageWithdrawn(message_id=message.id))


def message_say(*, message: Message, seat: int, citations: list[Citation] = ()) -> None:
    """Persist a turn that nobody saw stream (it was short, or answered at once): its row, complete,
    with its started and completed events, in one transaction. ``message`` is unsaved."""
    with transaction.atomic():
        message.status = Message.Status.COMPLETE
        message.citations = [citation.model_dump() for citation in citations]
        message.save(force_insert=True)
        event_append(debate_id=message.debate_id, payload=_started(message, seat))
        event_append(
            debate_id=message.debate_id,
            payload=MessageCompleted(
                message_id=message.id,
                text=message.text,
                citations=list(citations),
                cut_off=message.cut_off,
                unanswered=message.unanswered,
                totals=debate_totals(message.debate_id),
            ),
        )


def message_text_save(*, message: Message, text: str) -> None:
    """Save a streaming message's text so far and announce it to the live pages, in one statement
    (not an event: the completion carries the final text).

    Committed without waiting for its WAL flush (`synchronous_commit = off` for this transaction
    only), when the statement is its own transaction: every committing transaction that notifies
    holds PostgreSQL's one notify lock until its commit is done, so ten debates' text saves would
    otherwise queue the events behind their disk flushes. A crash may lose the last fraction of a
    second of text so far, which the completed message (an event, fully durable) rewrites anyway.
    Inside a caller's transaction the setting would cover the caller's writes too, so it is left
    alone there."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH saved AS (UPDATE {Message._meta.db_table} SET text = %s WHERE id = %s RETURNING id) "
            "SELECT pg_notify(%s, %s)"
            + (", set_config('synchronous_commit', 'off', true)" if not connection.in_atomic_block else "")
            + " FROM saved",
            [
                text,
                message.id,
                broadcast.PROGRESS_CHANNEL,
                broadcast.progress_notice(debate_id=message.debate_id, message_id=message.id, text=text),
            ],
        )


def turn_pass(*, debate: Debate, persona) -> None:
    event_append(
        debate_id=debate.id,
        payload=TurnPassed(persona_id=persona.id, persona_name=persona.name, totals=debate_totals(debate.id)),
    )
