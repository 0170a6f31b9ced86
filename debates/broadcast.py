"""The one way out for live updates: publish each committed event (its number, kind and payload)
and each streaming message's text so far to the debate's channel-layer group. The web process's
consumers fold the events into their view of the debate and render the partials the page renders
(debates/consumers.py), so the process that runs debates never renders a fragment."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import queue
import threading
import time

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)
# Publishing is done by one background thread per process, in commit order, so a Redis round
# trip never sits on the orchestrator's critical path.
_outbox: queue.Queue = queue.Queue()
_pusher_lock = threading.Lock()
_pusher: threading.Thread | None = None


def group_name(debate_id) -> str:
    return f"debate-{debate_id}"


def user_group_name(user_id) -> str:
    return f"user-{user_id}"


def session_digest(session_key: str | None) -> str:
    """Names a session in a message without putting its key (a credential) on the wire."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def _push_forever() -> None:
    # One event loop for the thread's life, so the channel layer keeps its Redis connection
    # instead of opening one per push.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    layer = get_channel_layer()
    while True:
        group, message = _outbox.get()
        try:
            if callable(message):
                message = message()
            loop.run_until_complete(layer.group_send(group, message))
        except Exception:
            # Everything pushed is already committed: a failed push costs a live update, which
            # the consumer or the page notices and repairs from a snapshot, never the debate.
            logger.exception("Could not push a live update")
        finally:
            _outbox.task_done()


def _later(group: str, message) -> None:
    global _pusher
    with _pusher_lock:
        if _pusher is None or not _pusher.is_alive():
            _pusher = threading.Thread(target=_push_forever, name="faultline-pusher", daemon=True)
            _pusher.start()
    _outbox.put((group, message))


def drain(timeout: float = 10.0) -> bool:
    """Wait until everything queued so far has been pushed (a CLI run ends only after that)."""
    deadline = time.monotonic() + timeout
    while _outbox.unfinished_tasks and time.monotonic() < deadline:
        time.sleep(0.01)
    return not _outbox.unfinished_tasks


def event_committed(event) -> None:
    """Called on commit: the event exactly as a reader of the log will see it."""

    def message():
        # Through JSON, as the JSONField stored it, so the consumer's fold sees what a fold of the
        # log sees (string keys, lists, no tuples).
        return {
            "type": "debate.event",
            "seq": event.seq,
            "kind": str(event.kind),
            "payload": json.loads(json.dumps(event.payload)),
        }

    _later(group_name(event.debate_id), message)


def message_progress(*, debate_id, message_id: int, text: str) -> None:
    """Push a streaming message's text so far (already saved on its Message row). Not an event:
    the consumer shows it only while the message is still streaming (see DebateConsumer)."""
    _later(group_name(debate_id), {"type": "debate.progress", "message_id": message_id, "text": text})


def _send_now(group: str, message: dict) -> None:
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        # The change itself is saved; sockets also check their access every few seconds.
        logger.exception("Could not tell the live sockets about an access change")


def access_changed(*, debate_id) -> None:
    """Who may watch the debate changed (unshared, deleted): every socket on it checks again."""
    _send_now(group_name(debate_id), {"type": "debate.access_changed"})


def session_ended(*, user_id, session_key: str | None) -> None:
    """A session was logged out: the sockets it opened close."""
    _send_now(user_group_name(user_id), {"type": "session.ended", "session": session_digest(session_key)})
