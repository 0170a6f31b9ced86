"""Runs one debate from start (or from where it stopped) to results."""

from __future__ import annotations

import contextlib
import logging
import zlib

from django.db import connection, transaction
from django.utils import timezone

from debates import broadcast
from debates.models import Debate
from debates.services.events import event_append
from debates.state import EventKind
from faultline.llm.types import ModelError

logger = logging.getLogger(__name__)


class DebateBusy(Exception):
    """Another orchestrator holds this debate."""


def _lock_key(debate_id) -> int:
    return zlib.crc32(str(debate_id).encode())


def debate_is_being_run(*, debate_id) -> bool:
    """True while some process holds the debate's orchestrator lock."""
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


@contextlib.contextmanager
def debate_lock(debate_id):
    # A session-level advisory lock: held while this process runs the debate, released by
    # PostgreSQL itself if the process dies, which is what makes "resume" safe to click.
    key = _lock_key(debate_id)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        (acquired,) = cursor.fetchone()
    if not acquired:
        raise DebateBusy(f"debate {debate_id} is already being run by another worker")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])


def debate_fail(*, debate_id, reason: str) -> None:
    with transaction.atomic():
        Debate.objects.filter(pk=debate_id).update(status=Debate.Status.FAILED, failure_reason=reason,
                                                   finished_at=timezone.now())
        event_append(debate_id=debate_id, kind=EventKind.DEBATE_FAILED, payload={"reason": reason})


def debate_run(*, debate_id) -> Debate:
    """Run (or resume) a debate to its end. Provider failures fail the debate, keeping every message."""
    from debates.orchestrator.dialogue import DialogueRun
    from debates.orchestrator.graph_mode import GraphRun

    with debate_lock(debate_id):
        debate = Debate.objects.get(pk=debate_id)
        if debate.status in (Debate.Status.COMPLETED, Debate.Status.STOPPED):
            return debate
        try:
            run = GraphRun if debate.mode == Debate.Mode.GRAPH else DialogueRun
            run(debate).execute()
        except ModelError as exc:
            logger.warning("Debate %s failed: %s", debate_id, exc)
            debate_fail(debate_id=debate_id, reason=str(exc))
        finally:
            broadcast.drain()
        debate.refresh_from_db()
        return debate
