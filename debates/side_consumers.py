"""The faultline map's websocket: the people's sides of one debate, live, rendered for each socket's
own viewer (the owner and members see names and their own forms; a share-link viewer sees counts).

Sides are not events of the debate's log (the run never reads them, and a replay has no use for
them): a side is written by its own request, and once it is committed the channel layer tells every
map open on the debate (``broadcast.sides_changed``), which reads the sides again and sends what
its viewer may see. The socket also watches the debate's hub (debates/event_feed.py) as the live
page's socket does, so a crux card posted while the map is open adds its row; it renders from the
hub's view and ignores the hub's fragments. On (re)connect it sends the whole map, so a missed
push costs nothing. Access is checked on connect and again whenever it may have changed, as on
the live page's socket (debates/consumers.py).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from debates import broadcast, event_feed, fragments
from debates.consumers import CLOSE_FORBIDDEN, socket_viewer
from debates.event_feed import DebateHub
from debates.faultline_map import faultline_map_of
from debates.selectors import debate_is_on_team
from debates.state import DebateView


def _cruxes_of(view: DebateView) -> DebateView:
    """What the map reads of the hub's view, copied on the event loop: the hub goes on folding
    while the map is rendered on a worker thread."""
    return DebateView(
        debate_id=view.debate_id, topic=view.topic, positions=dict(view.positions), cards=list(view.cards)
    )


class SidesConsumer(AsyncWebsocketConsumer):
    debate_id = None
    share_token: str = ""
    groups_joined: tuple[str, ...] = ()
    hub: DebateHub | None = None
    last_seq: int | None = None  # what the hub asks of its sockets
    hides_spend = False  # the hub's fragments are not sent from here: none rendered for this socket
    rows_sent: int | None = None  # how many crux rows this socket's page shows

    async def connect(self):
        self.debate_id = self.scope["url_route"]["kwargs"]["debate_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.share_token = (query.get("share") or [""])[0]
        await self.accept()
        if not await self._may_watch():
            await self.close(code=CLOSE_FORBIDDEN)
            return
        user = self.scope["user"]
        self.groups_joined = (broadcast.group_name(self.debate_id), broadcast.sides_group_name(self.debate_id)) + (
            (broadcast.user_group_name(user.pk),) if user.is_authenticated else ()
        )
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.hub = event_feed.feed().join(self.debate_id, self)
        await self.resync()  # read once in the groups and the hub: nothing taken meanwhile is missed

    async def disconnect(self, code):
        if self.hub is not None:
            self.hub.feed.leave(self.hub, self)
        self.hub = None
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = ()

    async def receive(self, text_data=None, bytes_data=None):
        """The map's page sends nothing on this socket: whatever comes is not ours to read."""

    # ── what the hub calls ───────────────────────────────────────────────────────────────────

    async def resync(self) -> None:
        """The whole map: every crux row (with this viewer's forms), its people and the camps."""
        hub = self.hub
        view = await hub.ready()
        if self.hub is not hub:
            return
        self.last_seq = view.last_seq
        await self._send_map(_cruxes_of(view), rows=True)

    async def deliver_event(self, seq: int, html: str) -> None:
        if self.hub is None:
            return
        self.last_seq = seq
        view = self.hub.view
        if 1 + len(view.cards) != self.rows_sent:  # a crux card was posted: its row joins the map
            await self._send_map(_cruxes_of(view), rows=True)

    async def deliver_progress(self, seq: int, html: str) -> None:
        """Streaming text is not the map's."""

    # ── what it sends ────────────────────────────────────────────────────────────────────────

    @database_sync_to_async
    def _may_watch(self) -> bool:
        return socket_viewer(self.scope, self.debate_id, self.share_token)[0] is not None

    @database_sync_to_async
    def _render(self, view: DebateView, *, rows: bool) -> tuple[str | None, int]:
        """The map as this viewer may see it (None: they may not watch at all), and its row count."""
        debate, user = socket_viewer(self.scope, self.debate_id, self.share_token)
        if debate is None:
            return None, 0
        on_team = not self.share_token and debate_is_on_team(debate=debate, user=user)
        faultlines = faultline_map_of(debate=debate, view=view, names=on_team, viewer_id=user.pk if on_team else None)
        if rows:
            return fragments.faultline_rows(faultlines, can_take_sides=on_team), len(faultlines.rows)
        return fragments.people_sides(faultlines), len(faultlines.rows)

    async def _send_map(self, view: DebateView, *, rows: bool) -> None:
        html, count = await self._render(view, rows=rows)
        if html is None:
            await self._revoke()
            return
        self.rows_sent = count
        await self.send(text_data=html)

    async def _revoke(self) -> None:
        await self.disconnect(CLOSE_FORBIDDEN)
        await self.close(code=CLOSE_FORBIDDEN)

    # ── what the channel layer tells it ─────────────────────────────────────────────────────

    async def debate_sides_changed(self, event):
        if self.hub is not None:
            view = await self.hub.ready()
            await self._send_map(_cruxes_of(view), rows=False)

    async def debate_access_changed(self, event):
        if self.groups_joined and not await self._may_watch():
            await self._revoke()

    async def session_ended(self, event):
        session = self.scope.get("session")
        if (
            not self.groups_joined
            or session is None
            or event["session"] != broadcast.session_digest(session.session_key)
        ):
            return
        self.scope["user"] = AnonymousUser()
        if self.hub is not None:
            await self.resync()  # as nobody: a share link may still allow the counts
