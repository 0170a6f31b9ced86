"""Listens to what is announced to the web processes for one debate (PostgreSQL LISTEN, as each
web process's feed does: debates/event_feed.py) and keeps it."""

from __future__ import annotations

import threading

import psycopg
from django.db import connections

from debates import broadcast


class AnnouncementRecorder:
    def __init__(self, debate_id) -> None:
        self.debate_id = str(debate_id)
        self.messages: list[str] = []
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)

    def _listen(self) -> None:
        params = connections["default"].get_connection_params()
        for key in ("cursor_factory", "context"):
            params.pop(key, None)
        with psycopg.connect(**params, autocommit=True) as conn:
            conn.execute(f"LISTEN {broadcast.EVENTS_CHANNEL}")
            conn.execute(f"LISTEN {broadcast.PROGRESS_CHANNEL}")
            self._ready.set()
            while not self._stop.is_set():
                for notice in conn.notifies(timeout=0.2):
                    debate_id, _, rest = notice.payload.partition(" ")
                    if debate_id == self.debate_id:
                        self.messages.append(rest)

    def __enter__(self) -> AnnouncementRecorder:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        import time

        time.sleep(0.5)  # let the last announcements arrive
        self._stop.set()
        self._thread.join(5)

    @property
    def pushed(self) -> str:
        """Everything announced, events and streaming text alike, as one text to search."""
        return "\n".join(self.messages)
