"""Announcing a streaming message's text the way its writer does (debates/services/messages.py,
``message_text_save`` saves and announces in one statement), for tests that play the writer."""

from django.db import connection

from debates.broadcast import PROGRESS_CHANNEL, progress_notice


def message_progress(*, debate_id, message_id: int, text: str) -> None:
    """Announce a streaming message's text so far that is already saved on its row."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_notify(%s, %s)",
            [PROGRESS_CHANNEL, progress_notice(debate_id=debate_id, message_id=message_id, text=text)],
        )
