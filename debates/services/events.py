"""Appending to a debate's event log. Each event gets the next sequence number of its debate
and is announced to the web processes in the same transaction: PostgreSQL delivers the
announcement only when it commits, so a page never shows something the database does not hold."""

from __future__ import annotations

import json

from django.db import connection, transaction
from django.utils import timezone

from debates import broadcast
from debates.models import Debate, Event
from debates.payloads import Payload


def event_append(*, debate_id, payload: Payload) -> Event:
    """Persist one event; its kind is its payload's type (debates/payloads.py)."""
    # One UPDATE ... RETURNING both numbers the event and serialises concurrent writers (the main
    # channel and its crux rooms) on the debate row, so sequence numbers never collide. Inside a
    # caller's transaction (most appends: a turn's rows, a ledger update) no savepoint: its two
    # round trips would double the statement's, and an error here fails the caller's block anyway.
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Debate._meta.db_table} SET last_seq = last_seq + 1 WHERE id = %s RETURNING last_seq",
            [debate_id],
        )
        (seq,) = cursor.fetchone()
        event = Event(
            debate_id=debate_id,
            seq=seq,
            kind=payload.event_kind.value,
            payload=payload.model_dump(mode="json", exclude_none=True),
            created_at=timezone.now(),
        )
        # The row and its announcement in one statement: the announcement leaves at commit.
        notice = broadcast.event_notice(event)
        cursor.execute(
            f"WITH saved AS (INSERT INTO {Event._meta.db_table} (debate_id, seq, kind, payload, created_at) "
            "VALUES (%s, %s, %s, %s::jsonb, %s) RETURNING id) "
            + ("SELECT id, pg_notify(%s, %s) FROM saved" if notice is not None else "SELECT id, NULL FROM saved"),
            [debate_id, seq, event.kind, json.dumps(event.payload), event.created_at]
            + ([broadcast.EVENTS_CHANNEL, notice] if notice is not None else []),
        )
        event.id = cursor.fetchone()[0]
    event._state.adding = False
    event._state.db = connection.alias
    return event
