"""Appending to a debate's event log. Each event gets the next sequence number of its debate
and is announced to the web processes in the same transaction: PostgreSQL delivers the
announcement only when it commits, so a page never shows something the database does not hold."""

from __future__ import annotations

from django.db import connection, transaction

from debates import broadcast
from debates.models import Debate, Event
from debates.payloads import Payload


def event_append(*, debate_id, payload: Payload) -> Event:
    """Persist one event; its kind is its payload's type (debates/payloads.py)."""
    with transaction.atomic():
        # One UPDATE ... RETURNING both numbers the event and serialises concurrent writers (the
        # main channel and its crux rooms) on the debate row, so sequence numbers never collide.
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Debate._meta.db_table} SET last_seq = last_seq + 1 WHERE id = %s RETURNING last_seq",
                [debate_id],
            )
            (seq,) = cursor.fetchone()
        event = Event.objects.create(
            debate_id=debate_id,
            seq=seq,
            kind=payload.event_kind.value,
            payload=payload.model_dump(mode="json", exclude_none=True),
        )
        broadcast.event_announce(event)
    return event
