"""The live page's websocket: a snapshot on every (re)connect, then the debate's events, each
folded into this socket's view of the debate and rendered with the page's own partials.

Reload mid-debate must show nothing missing and nothing twice. The consumer joins the debate's
group *before* reading the snapshot, so no event committed after the snapshot can be missed; an
event already in the snapshot may still arrive from the group (it was published while we read),
and is dropped by its sequence number.

Never silently stale: events carry consecutive sequence numbers, so an event that skips one means
a push was lost on the way, and the socket resyncs (a fresh snapshot). A lost push that nothing
follows (the debate's last event) is caught when the page reports in, every few seconds
(static/js/faultline.js): if the log holds an event this socket never got and that is too old to
be still on its way, the page is sent a snapshot too.

Streaming text (``debate.progress``) is not an event: it is shown only while this socket's view
holds the message as still streaming, so a late one never overwrites a finished message.

Access is checked on connect, again whenever it may have changed (unsharing, logout) and at every
report from the page; a socket that lost it is closed.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import OrderedDict
from datetime import timedelta
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from debates import broadcast, fragments
from debates.models import Debate, Event
from debates.payloads import parse_payload
from debates.selectors import debate_visible_to
from debates.services.lifecycle import debate_can_resume
from debates.snapshot import debate_live_view
from debates.state import DebateView, apply

# Closing with a 4xxx code (rather than refusing the handshake, which browsers report as 1006)
# stops the htmx ws extension from reconnecting over and over.
CLOSE_FORBIDDEN = 4403
# An event the page still lacks this long after it was persisted was lost, not on its way (a push
# takes milliseconds, seconds under heavy load).
LOST_AFTER = timedelta(seconds=2)
# The page reports every few seconds; a client sending more often gets no more database reads.
MIN_CHECK_INTERVAL = 1.0


class _RenderedEvents:
    """Each event's fragment, rendered once per process however many sockets watch the debate.

    Every socket renders event n from its fold of events 1..n, so the fragment is the same for all
    of them and can be shared. Sync consumers' handlers run one at a time on one thread; the lock
    only keeps this honest if that ever changes."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._items: OrderedDict[tuple[str, int], str] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_render(self, view: DebateView, kind: str, payload) -> str:
        key = (view.debate_id, view.last_seq)
        with self._lock:
            if key in self._items:
                return self._items[key]
        html = fragments.for_event(view, kind, payload)
        with self._lock:
            self._items[key] = html
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return html


rendered_events = _RenderedEvents()


class DebateConsumer(WebsocketConsumer):
    debate_id = None
    share_token: str = ""
    groups_joined: tuple[str, ...] = ()
    view: DebateView | None = None
    last_check: float = 0.0

    def connect(self):
        self.debate_id = self.scope["url_route"]["kwargs"]["debate_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.share_token = (query.get("share") or [""])[0]
        self.accept()
        if not self._allowed():
            self.close(code=CLOSE_FORBIDDEN)
            return
        user = self.scope["user"]
        self.groups_joined = (broadcast.group_name(self.debate_id),) + (
            (broadcast.user_group_name(user.pk),) if user.is_authenticated else ()
        )
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_add)(group, self.channel_name)
        self._send_snapshot()

    def disconnect(self, code):
        for group in self.groups_joined:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)
        self.groups_joined = ()
        self.view = None

    # ── what this socket may see ───────────────────────────────────────────────────────────

    def _allowed(self) -> bool:
        """Checked against the database, not the scope: the debate may have been unshared and the
        user's session logged out since the socket opened."""
        debate = Debate.objects.filter(pk=self.debate_id).first()
        user = self.scope.get("user") or AnonymousUser()
        if user.is_authenticated:
            session = self.scope.get("session")
            session_alive = session is not None and session.session_key and session.exists(session.session_key)
            user = (
                get_user_model().objects.filter(pk=user.pk, is_active=True).first() if session_alive else None
            ) or AnonymousUser()
        return debate is not None and debate_visible_to(debate=debate, user=user, share_token=self.share_token)

    def _revoke(self) -> None:
        self.disconnect(CLOSE_FORBIDDEN)  # leave the groups now: nothing more is sent
        self.close(code=CLOSE_FORBIDDEN)

    def debate_access_changed(self, event):
        if self.view is not None and not self._allowed():
            self._revoke()

    def session_ended(self, event):
        session = self.scope.get("session")
        if self.view is None or session is None or event["session"] != broadcast.session_digest(session.session_key):
            return  # another of the user's sessions: still logged in here
        # The session is being flushed as this arrives: watch on as nobody, which a share link
        # may still allow.
        self.scope["user"] = AnonymousUser()
        if not self._allowed():
            self._revoke()

    # ── what it shows ──────────────────────────────────────────────────────────────────────

    def _send_snapshot(self) -> None:
        debate = Debate.objects.get(pk=self.debate_id)
        user = self.scope["user"]
        is_owner = user.is_authenticated and debate.owner_id == user.pk
        self.view = debate_live_view(debate_id=self.debate_id)
        self.send(text_data=fragments.snapshot(self.view, can_resume=is_owner and debate_can_resume(debate=debate)))

    def debate_event(self, event):
        if self.view is None:
            return
        seq = event["seq"]
        if seq <= self.view.last_seq:
            return  # already in the snapshot this client was sent
        if seq != self.view.last_seq + 1:
            self._send_snapshot()  # a push between the two was lost: the snapshot holds it, and this one
            return
        payload = parse_payload(event["kind"], event["payload"])  # typed once, for the fold and the fragment
        apply(self.view, seq, event["kind"], payload)
        self.send(text_data=rendered_events.get_or_render(self.view, event["kind"], payload))

    def debate_progress(self, event):
        message = self.view.message(event["message_id"]) if self.view is not None else None
        if message is None or not message.streaming:
            return  # not started here yet, or finished: the completed message carries the text
        self.send(text_data=fragments.message(dataclasses.replace(message, text=event["text"]), oob=True))

    def receive(self, text_data=None, bytes_data=None):
        """The page reports which event it shows, {"seq": n}, every few seconds: the moment to check
        that nothing was lost on the way here. Anything else is ignored."""
        try:
            int(json.loads(text_data or "")["seq"])
        except (ValueError, TypeError, KeyError):
            return
        if self.view is None or time.monotonic() - self.last_check < MIN_CHECK_INTERVAL:
            return
        self.last_check = time.monotonic()
        if not self._allowed():
            self._revoke()
            return
        # Compared with what this socket has sent, not with what the page has drawn so far: on an
        # open socket nothing sent is lost, and a page still working through a backlog of updates
        # must not be handed a snapshot on top of it.
        first_missing = (
            Event.objects.filter(debate_id=self.debate_id, seq__gt=self.view.last_seq)
            .order_by("seq")
            .values_list("created_at", flat=True)
            .first()
        )
        if first_missing is not None and timezone.now() - first_missing > LOST_AFTER:
            self._send_snapshot()
