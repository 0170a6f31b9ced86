"""The one way out for live updates: render the partial for a committed event and send it to the
debate's websocket group. Consumers forward it to browsers (see debates/consumers.py)."""

from __future__ import annotations

import copy
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from debates import fragments
from debates.state import DebateView, EventKind, apply

logger = logging.getLogger(__name__)
_views: dict[str, DebateView] = {}
_views_lock = threading.Lock()
_FINAL = {EventKind.DEBATE_FINISHED, EventKind.DEBATE_FAILED}


def group_name(debate_id) -> str:
    return f"debate-{debate_id}"


def send(*, debate_id, html: str, seq: int | None) -> None:
    """seq is the event's number; None for in-place refreshes (streaming text) that are not events."""
    async_to_sync(get_channel_layer().group_send)(
        group_name(debate_id), {"type": "debate.fragment", "seq": seq, "html": html}
    )


def _view_after(event) -> DebateView:
    # Fragments need the debate's state at the event (turn count, room of a message...). Keep a
    # folded view per debate in this process and apply events as they commit; refold from the
    # log when another process (a crux room's worker) wrote events in between.
    from debates.selectors import debate_view

    key = str(event.debate_id)
    with _views_lock:
        view = _views.get(key)
        if view is not None and view.last_seq == event.seq - 1:
            apply(view, event.seq, event.kind, event.payload)
        else:
            view = debate_view(debate_id=event.debate_id, upto=event.seq)
        if event.kind in _FINAL:
            _views.pop(key, None)
        else:
            _views[key] = view
        return copy.deepcopy(view)


def event_committed(event) -> None:
    # The event is already committed: a failed push costs a live update (the page resyncs from
    # its snapshot on reconnect), never the debate. So log it and carry on.
    try:
        view = _view_after(event)
        send(debate_id=event.debate_id, html=fragments.for_event(view, event.kind, event.payload), seq=event.seq)
    except Exception:
        logger.exception("Could not push event %s of debate %s", event.seq, event.debate_id)


def message_progress(*, debate_id, message_id: int, text: str) -> None:
    """Push a streaming message's text so far (already saved on its Message row)."""
    with _views_lock:
        view = _views.get(str(debate_id))
        message = copy.deepcopy(view.message(message_id)) if view else None
    if message is None:
        return  # its message_started event has not been broadcast here yet; the next push will be
    message.text = text
    try:
        send(debate_id=debate_id, html=fragments.message(message, oob=True), seq=None)
    except Exception:
        logger.exception("Could not push streaming text of message %s", message_id)
