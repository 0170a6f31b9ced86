"""The live page's websocket: a snapshot on every (re)connect, then the debate's fragments.

Reload mid-debate must show nothing missing and nothing twice. The consumer joins the debate's
group *before* reading the snapshot, so no event committed after the snapshot can be missed; an
event already in the snapshot may still arrive from the group (it was broadcast while we read),
and is dropped by its sequence number. Streaming refreshes (seq None) are not events: they
replace a message in place and are always forwarded.
"""

from __future__ import annotations

from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer

from debates import broadcast, fragments
from debates.models import Debate
from debates.selectors import debate_visible_to
from debates.services.lifecycle import debate_can_resume
from debates.snapshot import debate_live_view

# Closing with a 4xxx code (rather than refusing the handshake, which browsers report as 1006)
# stops the htmx ws extension from reconnecting over and over.
CLOSE_FORBIDDEN = 4403


class DebateConsumer(WebsocketConsumer):
    group: str | None = None
    snapshot_seq: int = 0

    def connect(self):
        debate_id = self.scope["url_route"]["kwargs"]["debate_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        share_token = (query.get("share") or [""])[0]
        user = self.scope.get("user")
        debate = Debate.objects.filter(pk=debate_id).first()
        self.accept()
        if debate is None or user is None or not debate_visible_to(debate=debate, user=user, share_token=share_token):
            self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = broadcast.group_name(debate.id)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        view = debate_live_view(debate_id=debate.id)
        self.snapshot_seq = view.last_seq
        is_owner = user.is_authenticated and debate.owner_id == user.id
        self.send(text_data=fragments.snapshot(view, can_resume=is_owner and debate_can_resume(debate=debate)))

    def disconnect(self, code):
        if self.group:
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)

    def debate_fragment(self, event):
        seq = event.get("seq")
        if seq is not None and seq <= self.snapshot_seq:
            return  # already in the snapshot this client was sent
        self.send(text_data=event["html"])
