"""The live page's websocket: a snapshot on every (re)connect, then the debate's events as the
fragments the page itself renders.

The fold and the rendering are not done per socket: the process's feed (debates/event_feed.py)
keeps one hub per debate, which hears each committed event from PostgreSQL, folds it once, renders
its fragments once and hands them to every socket watching the debate here.

Reload mid-debate must show nothing missing and nothing twice. A socket joins its debate's hub
*before* it is sent its snapshot, and the snapshot is rendered from the hub's own view, which
holds every event the hub has handed out: events already in it are dropped by their sequence
number, the rest follow in order.

Never silently stale: the hub reads any event it was not told about from the log (a lost or
oversized announcement, a broken listening connection), so its sockets get every event in order.
Should a socket still see a number skipped, it is resynced from a fresh snapshot. A lost event
that nothing follows (the debate's last) is caught when the page reports in, every few seconds
(static/js/faultline.js): if the log holds an event this socket never got and that is too old to
be still on its way, the hub reads the log.

Streaming text is not an event: the hub shows it only while its view holds the message as still
streaming, and a socket takes it only if it has been sent exactly the events that view has, so a
late one never overwrites a finished message.

Access is checked on connect, again whenever it may have changed (unsharing, logout) and at every
report from the page; a socket that lost it is closed.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from debates import broadcast, event_feed, fragments
from debates.event_feed import DebateHub
from debates.models import Debate, Event
from debates.selectors import debate_sees_spend, debate_visible_to
from debates.services.lifecycle import debate_can_resume
from gateways.input_rules import InputRefused, json_read

logger = logging.getLogger(__name__)

# Closing with a 4xxx code (rather than refusing the handshake, which browsers report as 1006)
# stops the htmx ws extension from reconnecting over and over.
CLOSE_FORBIDDEN = 4403
# A socket that sends what the page never sends: "unsupported data" (RFC 6455), not an error.
CLOSE_UNSUPPORTED = 1003
# An event the page still lacks this long after it was persisted was lost, not on its way (a push
# takes milliseconds, seconds under heavy load).
LOST_AFTER = timedelta(seconds=2)
# The page reports every few seconds; a client sending more often gets no more database reads.
MIN_CHECK_INTERVAL = 1.0


def socket_viewer(scope, debate_id, share_token: str) -> tuple[Debate | None, object]:
    """The debate, if the socket's viewer may watch it (else None), and that viewer: checked
    against the database, not the scope, since the debate may have been unshared, a member
    removed, or the user's session logged out since the socket opened."""
    debate = Debate.objects.filter(pk=debate_id).first()
    user = scope.get("user") or AnonymousUser()
    if user.is_authenticated:
        session = scope.get("session")
        session_alive = session is not None and session.session_key and session.exists(session.session_key)
        user = (
            get_user_model().objects.filter(pk=user.pk, is_active=True).first() if session_alive else None
        ) or AnonymousUser()
    if debate is None or not debate_visible_to(debate=debate, user=user, share_token=share_token):
        return None, user
    return debate, user


class DebateConsumer(AsyncWebsocketConsumer):
    debate_id = None
    share_token: str = ""
    groups_joined: tuple[str, ...] = ()
    hub: DebateHub | None = None
    last_seq: int | None = None  # the last event this socket was sent; None until its snapshot is
    last_check: float = 0.0
    hides_spend: bool = True  # what the debate spent is shown to its owner (and moderators) only

    async def connect(self):
        self.debate_id = self.scope["url_route"]["kwargs"]["debate_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.share_token = (query.get("share") or [""])[0]
        await self.accept()
        if not await self._allowed():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.hides_spend = not await self._sees_spend()
        user = self.scope["user"]
        self.groups_joined = (broadcast.group_name(self.debate_id),) + (
            (broadcast.user_group_name(user.pk),) if user.is_authenticated else ()
        )
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.hub = event_feed.feed().join(self.debate_id, self)
        await self.resync()

    async def disconnect(self, code):
        self._leave()
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = ()

    def _leave(self) -> None:
        if self.hub is not None:
            self.hub.feed.leave(self.hub, self)
        self.hub = None
        self.last_seq = None

    # ── what this socket may see ───────────────────────────────────────────────────────────

    @database_sync_to_async
    def _allowed(self) -> bool:
        return socket_viewer(self.scope, self.debate_id, self.share_token)[0] is not None

    @database_sync_to_async
    def _sees_spend(self) -> bool:
        debate, user = socket_viewer(self.scope, self.debate_id, self.share_token)
        return debate is not None and debate_sees_spend(debate=debate, user=user)

    async def _revoke(self, code: int = CLOSE_FORBIDDEN) -> None:
        await self.disconnect(code)  # leave the hub and the groups now: nothing more is sent
        await self.close(code=code)

    async def debate_access_changed(self, event):
        if self.hub is not None and not await self._allowed():
            await self._revoke()

    async def session_ended(self, event):
        session = self.scope.get("session")
        if self.hub is None or session is None or event["session"] != broadcast.session_digest(session.session_key):
            return  # another of the user's sessions: still logged in here
        # The session is being flushed as this arrives: watch on as nobody, which a share link
        # may still allow.
        self.scope["user"] = AnonymousUser()
        self.hides_spend = True
        if not await self._allowed():
            await self._revoke()

    # ── what it shows (called by the hub) ─────────────────────────────────────────────────

    @database_sync_to_async
    def _can_resume(self) -> bool:
        user = self.scope["user"]
        debate = Debate.objects.get(pk=self.debate_id)
        return user.is_authenticated and debate.owner_id == user.pk and debate_can_resume(debate=debate)

    async def resync(self) -> None:
        """Send a snapshot of the hub's view: everything the hub has handed out so far."""
        hub = self.hub
        self.last_seq = None  # what arrives before the snapshot is in it
        can_resume = await self._can_resume()
        view = await hub.ready()
        if self.hub is not hub:
            return  # closed meanwhile
        # No await between reading the view and taking its number: the hub cannot move on in between.
        html = fragments.snapshot(view, can_resume=can_resume, hide_spend=self.hides_spend)
        self.last_seq = view.last_seq
        await self.send(text_data=html)

    async def deliver_event(self, seq: int, html: str) -> None:
        if self.last_seq is None or seq <= self.last_seq:
            return  # its snapshot is still to come, or holds it already
        if seq != self.last_seq + 1:
            await self.resync()  # the hub skipped a number for this socket: the snapshot holds it
            return
        self.last_seq = seq
        await self.send(text_data=html)

    async def deliver_progress(self, seq: int, html: str) -> None:
        if self.last_seq == seq:  # this socket shows exactly the view the text was rendered in
            await self.send(text_data=html)

    async def receive(self, text_data=None, bytes_data=None):
        """The page reports which event it shows, {"seq": n}, every few seconds: the moment to check
        that nothing was lost on the way here. The page sends nothing else: anything else (not
        JSON, 1e999, nested 200,000 deep, binary) closes the socket as unsupported data, with one
        line in the log, never a server error."""
        try:
            report = json_read(text_data if text_data is not None else "")
        except InputRefused:
            report = None
        if not isinstance(report, dict) or type(report.get("seq")) is not int:
            logger.info(
                "Closed the websocket of debate %s: it sent %s, not a report",
                self.debate_id,
                f"{len(text_data)} characters" if text_data is not None else f"{len(bytes_data or b'')} bytes",
            )
            await self._revoke(CLOSE_UNSUPPORTED)
            return
        if self.last_seq is None or time.monotonic() - self.last_check < MIN_CHECK_INTERVAL:
            return
        self.last_check = time.monotonic()
        if not await self._allowed():
            await self._revoke()
            return
        # Compared with what this socket has sent, not with what the page has drawn so far: on an
        # open socket nothing sent is lost, and a page still working through a backlog of updates
        # must not be handed a snapshot on top of it.
        first_missing = await database_sync_to_async(
            lambda seq: (
                Event.objects.filter(debate_id=self.debate_id, seq__gt=seq)
                .order_by("seq")
                .values_list("created_at", flat=True)
                .first()
            )
        )(self.last_seq)
        if first_missing is not None and timezone.now() - first_missing > LOST_AFTER and self.hub is not None:
            self.hub.catch_up(self)
