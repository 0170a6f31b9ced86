"""The one way out for live updates: render the partial for a committed event and send it to the
debate's websocket group. Consumers forward it to browsers (see debates/consumers.py)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import queue
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connection

from debates import fragments
from debates.state import DebateView, EventKind, apply

logger = logging.getLogger(__name__)
# Pushing is done by one background thread per process, in commit order, so rendering and
# publishing never sit on the orchestrator's critical path. Only that thread touches _views.
_views: dict[str, DebateView] = {}
_outbox: queue.Queue = queue.Queue()
_pusher_lock = threading.Lock()
_pusher: threading.Thread | None = None
_FINAL = {EventKind.DEBATE_FINISHED, EventKind.DEBATE_FAILED}


def group_name(debate_id) -> str:
    return f"debate-{debate_id}"


def send(*, debate_id, html: str, seq: int | None) -> None:
    """seq is the event's number; None for in-place refreshes (streaming text) that are not events."""
    async_to_sync(get_channel_layer().group_send)(
        group_name(debate_id), {"type": "debate.fragment", "seq": seq, "html": html}
    )


def _push_forever() -> None:
    # One event loop for the thread's life, so the channel layer keeps its Redis connection
    # instead of opening one per push.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    layer = get_channel_layer()
    while True:
        job = _outbox.get()
        try:
            fragment = job()
            if fragment is not None:
                debate_id, html, seq = fragment
                loop.run_until_complete(
                    layer.group_send(group_name(debate_id), {"type": "debate.fragment", "seq": seq, "html": html})
                )
        except Exception:
            # Everything pushed is already committed: a failed push costs a live update (the
            # page resyncs from a snapshot on reconnect), never the debate.
            logger.exception("Could not push a live update")
        finally:
            _outbox.task_done()


def _later(job) -> None:
    global _pusher
    with _pusher_lock:
        if _pusher is None or not _pusher.is_alive():
            _pusher = threading.Thread(target=_push_forever, name="faultline-pusher", daemon=True)
            _pusher.start()
    _outbox.put(job)


def drain(timeout: float = 10.0) -> bool:
    """Wait until everything queued so far has been pushed (a CLI run ends only after that)."""
    deadline = time.monotonic() + timeout
    while _outbox.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.01)
    return not _outbox.unfinished_tasks


def _view_after(event) -> DebateView:
    # Fragments need the debate's state at the event (turn count, room of a message...). Keep a
    # folded view per debate and apply events as they commit; refold from the log when another
    # process (or a gap) wrote events in between.
    from debates.selectors import debate_view

    key = str(event.debate_id)
    view = _views.get(key)
    if view is not None and view.last_seq == event.seq - 1:
        apply(view, event.seq, event.kind, event.payload)
    else:
        try:
            view = debate_view(debate_id=event.debate_id, upto=event.seq)
        finally:
            connection.close()  # refolds are rare; don't keep a connection open in this thread
    if event.kind in _FINAL:
        _views.pop(key, None)
    else:
        _views[key] = view
    return view


def event_committed(event) -> None:
    def push():
        view = _view_after(event)
        return event.debate_id, fragments.for_event(view, event.kind, event.payload), event.seq

    _later(push)


def message_progress(*, debate_id, message_id: int, text: str) -> None:
    """Push a streaming message's text so far (already saved on its Message row)."""

    def push():
        view = _views.get(str(debate_id))
        message = view.message(message_id) if view else None
        if message is None:
            return None  # not announced in this process yet; the completed message will carry the text
        return debate_id, fragments.message(dataclasses.replace(message, text=text), oob=True), None

    _later(push)
