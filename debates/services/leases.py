"""Who is running a debate: one orchestrator per debate, for the whole run.

The lease is a PostgreSQL session-level advisory lock held on a connection of its own, opened
here and used for nothing else. It cannot be lost to the ORM closing or recycling its connections
(``close_old_connections()`` on the orchestrator's thread once closed the session that held the
lock, seconds before the end of a run), and PostgreSQL releases it by itself when the process
dies, which is what makes recovery and "Resume" safe.
"""

from __future__ import annotations

import contextlib
import logging
import zlib

import psycopg
from django.db import connection

from debates.models import Debate

logger = logging.getLogger(__name__)


class DebateBusy(Exception):
    """Another orchestrator holds this debate."""


class LeaseLost(Exception):
    """The lease's connection died (the database restarted): this run must stop writing."""


def _lock_key(debate_id) -> int:
    return zlib.crc32(str(debate_id).encode())


def debate_is_being_run(*, debate_id) -> bool:
    """True while some process holds the debate's lease."""
    # Look, don't touch: probing with a try-lock would hold the lock for an instant, and a worker
    # starting the debate in that instant would find it busy. A bigint key below 2^32 shows in
    # pg_locks as classid 0, objid key, objsubid 1.
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND classid = 0 AND objid = %s AND objsubid = 1)",
            [_lock_key(debate_id)],
        )
        (held,) = cursor.fetchone()
    return held


class Lease:
    """A held lease; ``check()`` raises LeaseLost if its connection is gone."""

    def __init__(self, debate_id, conn: psycopg.Connection) -> None:
        self.debate_id = debate_id
        self._conn = conn

    def check(self) -> None:
        try:
            self._conn.execute("SELECT 1")
        except psycopg.Error as exc:
            raise LeaseLost(f"lost the database session holding debate {self.debate_id}: {exc}") from exc

    def requests(self) -> tuple[bool, bool] | None:
        """``check()`` and what the owner asked for, in one round trip on the lease's session:
        (stop requested, pause requested), or None if the debate is gone. The run loop asks at
        every turn boundary."""
        try:
            return self._conn.execute(
                f"SELECT stop_requested, pause_requested FROM {Debate._meta.db_table} WHERE id = %s",
                [self.debate_id],
            ).fetchone()
        except psycopg.Error as exc:
            raise LeaseLost(f"lost the database session holding debate {self.debate_id}: {exc}") from exc


def _dedicated_connection() -> psycopg.Connection:
    # The same database and credentials as the ORM's, on a connection nobody else touches.
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


@contextlib.contextmanager
def debate_lease(debate_id):
    """Hold the debate for the length of the block, or raise DebateBusy at once."""
    conn = _dedicated_connection()
    try:
        (acquired,) = conn.execute("SELECT pg_try_advisory_lock(%s)", [_lock_key(debate_id)]).fetchone()
        if not acquired:
            raise DebateBusy(f"debate {debate_id} is already being run by another worker")
        yield Lease(debate_id, conn)
    finally:
        # Closing the session releases the lock; an explicit unlock first keeps pg_locks tidy at once.
        with contextlib.suppress(psycopg.Error):
            conn.execute("SELECT pg_advisory_unlock(%s)", [_lock_key(debate_id)])
        conn.close()
