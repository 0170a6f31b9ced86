"""Is a Celery worker still taking work from the queue? What its supervisor asks every half second.

A worker can stop consuming long before it exits. On a broker connection loss (a Redis restart)
kombu 5.7 fails while restoring its unacknowledged messages (``AttributeError: 'NoneType' object
has no attribute 'hostname'`` in ``kombu/transport/redis.py`` ``_connparams``; no newer kombu or
Celery release fixes it as of 2026-11-25), Celery logs "Unrecoverable error" and goes into a warm
shutdown: it takes nothing more from the queue, lets the debates it runs finish (minutes with real
models), then exits. A supervisor that only restarts dead processes starts no other worker until
then, and every debate queued meanwhile waits.

So a worker started with ``FAULTLINE_WORKER_HEARTBEAT=<file>`` writes its state there every
``BEAT_SECONDS``: ``starting``, then ``consuming`` while its bootsteps run, then ``stopping`` once it
began shutting down. Its supervisor (the launcher, benchmarks/faults.py) starts a replacement as
soon as a worker it did not ask to stop says ``stopping``, or says nothing for
``SILENT_AFTER_SECONDS`` (a hung process), and leaves the old one to finish its debates. No debate
is run twice: a debate's lease admits one orchestrator, and the old worker took nothing new.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path

logger = logging.getLogger(__name__)

HEARTBEAT_ENV = "FAULTLINE_WORKER_HEARTBEAT"
BEAT_SECONDS = 0.5
SILENT_AFTER_SECONDS = 30.0

STARTING, CONSUMING, STOPPING, SILENT = "starting", "consuming", "stopping", "silent"


# ── in the worker ────────────────────────────────────────────────────────────────────────────


def heartbeat_start(worker) -> threading.Thread | None:
    """Start writing ``worker``'s state (a celery WorkController) where the supervisor said."""
    path = os.environ.get(HEARTBEAT_ENV)
    if not path:
        return None
    thread = threading.Thread(target=_beat, args=(worker, Path(path)), name="faultline-heartbeat", daemon=True)
    thread.start()
    return thread


def worker_state_of(worker, *, was_running: bool) -> str:
    """``starting`` / ``consuming`` / ``stopping``, from the worker's bootsteps: they run (RUN) from
    its start until a shutdown begins (CLOSE, then TERMINATE), whatever started the shutdown."""
    from celery.bootsteps import RUN

    blueprint = getattr(worker, "blueprint", None)
    if blueprint is not None and blueprint.state == RUN:
        return CONSUMING
    return STOPPING if was_running else STARTING


def _beat(worker, path: Path) -> None:
    was_running = False
    said = None
    while True:
        state = worker_state_of(worker, was_running=was_running)
        was_running = was_running or state == CONSUMING
        if state != said:
            logger.info("Worker state: %s", state)
            said = state
        try:
            _write(path, state)
        except OSError:
            logger.warning("Could not write the worker heartbeat to %s", path, exc_info=True)
        time.sleep(BEAT_SECONDS)


def _write(path: Path, state: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(state)
    os.replace(partial, path)  # a reader never sees half a word


# ── in the supervisor ────────────────────────────────────────────────────────────────────────


def worker_state(path: Path, *, now: float | None = None) -> str:
    """What the worker writing ``path`` last said; ``silent`` if that was too long ago."""
    try:
        written = path.stat().st_mtime
        state = path.read_text().strip()
    except FileNotFoundError:
        return STARTING  # not written yet: the worker is still importing
    if (time.time() if now is None else now) - written > SILENT_AFTER_SECONDS:
        return SILENT
    return state or STARTING


def heartbeat_forget(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
