"""The live page's view of a debate at one instant: the folded event log plus the text so far of
messages still streaming. The live page renders it on load; each web process's feed reads it once
per watched debate and keeps it up to date (debates/event_feed.py), and every socket that
(re)connects is sent a snapshot of that view."""

from __future__ import annotations

from django.db import connection, transaction

from debates.models import Message
from debates.selectors import debate_view
from debates.state import DebateView


def debate_live_view(*, debate_id) -> DebateView:
    # The event log and the streaming text must come from the same instant, or a message that
    # completes between the two reads could show its partial text over its final one. REPEATABLE
    # READ gives both queries one snapshot; it must be the transaction's first statement, so it is
    # skipped when we are already inside one (tests, or a caller's own atomic block).
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        view = debate_view(debate_id=debate_id)
        streaming = Message.objects.filter(debate_id=debate_id, status=Message.Status.STREAMING)
        for message_id, text in streaming.values_list("id", "text"):
            message = view.message(message_id)
            if message is not None and message.streaming:
                message.text = text
    return view
