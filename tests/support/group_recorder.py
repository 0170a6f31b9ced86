"""Listens to a debate's websocket group on the real channel layer and keeps what was pushed."""

from __future__ import annotations

import asyncio
import json
import threading

from channels.layers import get_channel_layer

from debates.broadcast import group_name


class GroupRecorder:
    def __init__(self, debate_id) -> None:
        self.group = group_name(debate_id)
        self.messages: list[dict] = []
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)

    async def _listen(self) -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(self.group, channel)
        self._ready.set()
        while not self._stop.is_set():
            try:
                self.messages.append(await asyncio.wait_for(layer.receive(channel), timeout=0.2))
            except TimeoutError:
                continue
        await layer.group_discard(self.group, channel)

    def __enter__(self) -> GroupRecorder:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        import time

        time.sleep(0.5)  # let the last pushes arrive
        self._stop.set()
        self._thread.join(5)

    @property
    def pushed(self) -> str:
        """Everything published, events and streaming text alike, as one text to search."""
        return "\n".join(json.dumps(message, ensure_ascii=False) for message in self.messages)
