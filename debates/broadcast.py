"""The one way out for live updates.

Events and streaming text go from the process that writes them to the web processes through
PostgreSQL's LISTEN/NOTIFY: the writer adds a notification to its own transaction, and PostgreSQL
delivers it to every listener when, and only if, that transaction commits, in commit order. So a
page is never told about something the database does not hold, the writer needs no queue, thread
or broker round trip of its own, and nothing is rendered where debates run: each web process's
feed (debates/event_feed.py) folds the events once per debate and renders the partials the page
renders.

Who may watch a debate (unsharing, logout, a member removed) and the sides people take (rare, and
rendered per viewer) still go through the channel layer's groups, which reach every socket of a
debate or a user in whatever web process holds it.
"""

from __future__ import annotations

import hashlib
import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

EVENTS_CHANNEL = "faultline_events"
PROGRESS_CHANNEL = "faultline_progress"
# PostgreSQL refuses a notification payload of 8000 bytes or more. A longer event is announced
# by its number alone and the feed reads it from the log.
MAX_NOTIFY_BYTES = 7900


def group_name(debate_id) -> str:
    return f"debate-{debate_id}"


def sides_group_name(debate_id) -> str:
    """The sockets that show a debate's faultline map (debates/side_consumers.py)."""
    return f"sides-{debate_id}"


def user_group_name(user_id) -> str:
    return f"user-{user_id}"


def session_digest(session_key: str | None) -> str:
    """Names a session in a message without putting its key (a credential) on the wire."""
    return hashlib.sha256((session_key or "").encode()).hexdigest()[:32]


def _fits(payload: str, short: str) -> str:
    return payload if len(payload.encode()) <= MAX_NOTIFY_BYTES else short


def event_notice(event) -> str | None:
    """What the web processes are told of an event: ``"<debate id> <seq> <kind> <payload as JSON>"``,
    so a feed applies it without reading the database (``"<debate id> <seq>"`` alone when too long:
    the feed reads the log). The writer sends it in the event's own transaction
    (debates/services/events.py). None: nobody is told (tests and the faults benchmark lose
    announcements on purpose by returning None)."""
    head = f"{event.debate_id} {event.seq}"
    return _fits(f"{head} {event.kind} {json.dumps(event.payload, ensure_ascii=False)}", head)


def progress_notice(*, debate_id, message_id: int, text: str) -> str:
    """What the web processes are told of a streaming message's text so far (not an event: the feed
    shows it only while the message is still streaming in its fold of the log, so a late one never
    overwrites a finished message)."""
    head = f"{debate_id} {message_id}"
    return _fits(f"{head} {text}", head)


def _send_now(group: str, message: dict) -> None:
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except Exception:
        # The change itself is saved; sockets also check their access every few seconds.
        logger.exception("Could not tell the live sockets about a change of access or sides")


def access_changed(*, debate_id) -> None:
    """Who may watch the debate changed (unshared, deleted): every socket on it checks again."""
    _send_now(group_name(debate_id), {"type": "debate.access_changed"})


def sides_changed(*, debate_id) -> None:
    """Someone took or changed a side (committed): every open faultline map of the debate redraws
    what its own viewer may see."""
    _send_now(sides_group_name(debate_id), {"type": "debate.sides_changed"})


def session_ended(*, user_id, session_key: str | None) -> None:
    """A session was logged out: the sockets it opened close."""
    _send_now(user_group_name(user_id), {"type": "session.ended", "session": session_digest(session_key)})
