"""The faultline map's websocket: the people's sides of one debate, live, rendered for each socket's
own viewer (the owner and members see names; a share-link viewer sees counts only).

Sides are not events of the debate's log (the run never reads them, and a replay has no use for
them): a side is written by its own request, and once it is committed the channel layer tells every
map open on the debate (``broadcast.sides_changed``), which reads the sides again and sends what
its viewer may see. On (re)connect the socket sends the whole of it, so a missed push costs
nothing. Access is checked on connect and again whenever it may have changed, as on the live
page's socket (debates/consumers.py).
"""

from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth.models import AnonymousUser

from debates import broadcast, fragments
from debates.consumers import CLOSE_FORBIDDEN, socket_viewer
from debates.faultline_map import faultline_map_of
from debates.selectors import debate_is_on_team, debate_view


class SidesConsumer(AsyncWebsocketConsumer):
    debate_id = None
    share_token: str = ""
    groups_joined: tuple[str, ...] = ()

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
        await self._send_map()  # read once in the groups: a side taken meanwhile is not missed

    async def disconnect(self, code):
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = ()

    async def receive(self, text_data=None, bytes_data=None):
        """The map's page sends nothing on this socket: whatever comes is not ours to read."""

    @database_sync_to_async
    def _may_watch(self) -> bool:
        return socket_viewer(self.scope, self.debate_id, self.share_token)[0] is not None

    @database_sync_to_async
    def _render(self) -> str | None:
        """The people's sides as this viewer may see them; None when they may not watch at all."""
        debate, user = socket_viewer(self.scope, self.debate_id, self.share_token)
        if debate is None:
            return None
        faultlines = faultline_map_of(
            debate=debate, view=debate_view(debate_id=debate.id), names=debate_is_on_team(debate=debate, user=user)
        )
        return fragments.people_sides(faultlines)

    async def _send_map(self) -> None:
        html = await self._render()
        if html is None:
            await self._revoke()
            return
        await self.send(text_data=html)

    async def _revoke(self) -> None:
        await self.disconnect(CLOSE_FORBIDDEN)
        await self.close(code=CLOSE_FORBIDDEN)

    async def debate_sides_changed(self, event):
        if self.groups_joined:
            await self._send_map()

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
        await self._send_map()  # as nobody: a share link may still allow counts
