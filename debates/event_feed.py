"""A web process's feed of live updates.

One PostgreSQL connection per process LISTENs for what the writers announce (debates/broadcast.py:
every committed event and every streaming message's text so far), and one hub per debate watched
here folds that debate's events once and renders each event's fragments once, for all of its
sockets (debates/consumers.py). Everything runs on the server's event loop: no thread hop, no
per-socket fold, no broker between the database and the socket.

Nothing is lost between the log and the hub. A hub knows the number of the last event it applied:
an announcement that skips numbers (one lost, or too long to carry its payload) makes it read the
missing events from the log, in order, and a listening connection that broke and came back makes
every hub read whatever was committed meanwhile. The hub applies an event before it hands the
fragment to any socket, so its view is always the page as its sockets have been sent it, and a
socket that (re)connects is sent a snapshot rendered from that view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from typing import Protocol

import psycopg
from channels.db import database_sync_to_async
from django.db import connections
from pydantic import ValidationError

from debates import broadcast, fragments
from debates.models import Event, Message
from debates.payloads import parse_payload
from debates.snapshot import debate_live_view
from debates.state import DebateView, apply

logger = logging.getLogger(__name__)

RECONNECT_DELAYS = (0.1, 0.5, 1.0, 2.0, 5.0)


class Socket(Protocol):
    """What a hub needs of a websocket consumer."""

    last_seq: int | None  # the last event this socket was sent (None: its snapshot is not sent yet)
    hides_spend: bool  # its viewer is not the owner: the status line without the tokens and the cost

    async def deliver_event(self, seq: int, html: str) -> None: ...

    async def deliver_progress(self, seq: int, html: str) -> None: ...

    async def resync(self) -> None: ...


class DebateHub:
    """One debate's fold and fragments in this process, shared by every socket watching it.

    Its queue holds what the feed heard for the debate, in commit order; one task works through
    it, so the view changes in the same order as the log."""

    def __init__(self, feed: EventFeed, debate_id: str) -> None:
        self.feed = feed
        self.debate_id = debate_id
        self.sockets: set[Socket] = set()
        self.view: DebateView | None = None
        self.queue: asyncio.Queue = asyncio.Queue()
        # The newest text so far of each message whose progress is queued: a hub that falls behind
        # draws only the latest text, once (a ``None`` text: too long to announce, read it).
        self.progress: dict[int, str | None] = {}
        # The banner the hub last sent; an event that leaves it as it was does not send it again
        # (every page shows it already: a socket's snapshot comes from this view).
        self.banner_shown: str | None = None
        self._loaded = asyncio.Event()
        self.task = asyncio.ensure_future(self._run())

    async def ready(self) -> DebateView:
        """The view, once the hub has read it (after the feed listens: nothing committed later
        is missed)."""
        await self._loaded.wait()
        return self.view

    def catch_up(self, socket: Socket | None = None) -> None:
        """Read the log for events the hub never heard of; then resync ``socket`` if it is still
        behind the hub."""
        self.queue.put_nowait(("catch_up", socket))

    async def _run(self) -> None:
        await self.feed.listening.wait()
        failures = 0
        while self.view is None:  # until it is read, or its last socket leaves (the task is cancelled)
            try:
                self.view = await database_sync_to_async(debate_live_view)(debate_id=self.debate_id)
            except Exception:
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                logger.exception("Live feed could not read debate %s; trying again in %.1f s", self.debate_id, delay)
                failures += 1
                await asyncio.sleep(delay)
        self.banner_shown = fragments.banner(self.view)  # what every socket's snapshot shows
        self._loaded.set()
        while True:
            item = await self.queue.get()
            try:
                await self._handle(*item)
            except Exception:
                logger.exception("Live feed of debate %s could not handle %s", self.debate_id, item[0])

    async def _handle(self, what: str, *args) -> None:
        if what == "event":
            seq, kind, payload = args
            if seq <= self.view.last_seq:
                return  # already in the view (read with it, or from the log after a gap)
            if seq == self.view.last_seq + 1 and payload is not None:
                await self._deliver(seq, kind, payload)
            else:
                await self._read_log(upto=seq)
        elif what == "progress":
            (message_id,) = args
            await self._progress(message_id, self.progress.pop(message_id))
        elif what == "catch_up":
            (socket,) = args
            await self._read_log()
            if socket in self.sockets and socket.last_seq is not None and socket.last_seq < self.view.last_seq:
                await socket.resync()

    async def _read_log(self, upto: int | None = None) -> None:
        def read():
            events = Event.objects.filter(debate_id=self.debate_id, seq__gt=self.view.last_seq)
            if upto is not None:
                events = events.filter(seq__lte=upto)
            return list(events.order_by("seq").values_list("seq", "kind", "payload"))

        for seq, kind, payload in await database_sync_to_async(read)():
            await self._deliver(seq, kind, payload)

    async def _deliver(self, seq: int, kind: str, payload: dict) -> None:
        try:
            typed = parse_payload(kind, payload)  # typed once, for the fold and the fragment
        except ValidationError:
            typed = None
        apply(self.view, seq, kind, typed if typed is not None else payload)  # logs and skips a bad one
        # Rendered once for the owner's sockets and, only when anyone else watches here, once
        # without what the debate spent.
        variants: dict[bool, str] = {}
        for hide_spend in {False} | {socket.hides_spend for socket in self.sockets}:
            if typed is not None:
                variants[hide_spend] = fragments.for_event(
                    self.view, kind, typed, with_banner=False, hide_spend=hide_spend
                )
            else:  # a kind this code does not know, or a payload that does not match its schema
                variants[hide_spend] = fragments.status_line(self.view, hide_spend=hide_spend)
        banner = fragments.banner(self.view)
        if banner != self.banner_shown:
            variants = {hide_spend: html + banner for hide_spend, html in variants.items()}
            self.banner_shown = banner
        await self._fan_out("deliver_event", seq, variants[False], spendless=variants.get(True))

    async def _progress(self, message_id: int, text: str | None) -> None:
        message = self.view.message(message_id)
        if message is None or not message.streaming:
            return  # not started yet in the log, or finished: the completed message carries the text
        if text is None:  # too long to be announced
            text = await database_sync_to_async(
                lambda: Message.objects.values_list("text", flat=True).filter(pk=message_id).first()
            )()
            if text is None or not message.streaming:  # withdrawn meanwhile (message_withdraw), or finished
                return
        message.text = text  # a snapshot from this view shows the text so far
        html = fragments.message_text(message)  # the header, typing dots and all, stays as it is
        await self._fan_out("deliver_progress", self.view.last_seq, html)

    async def _fan_out(self, method: str, seq: int, html: str, *, spendless: str | None = None) -> None:
        """spendless: what a socket that hides the spend is sent instead (None: the same html)."""
        for socket in list(self.sockets):
            try:
                await getattr(socket, method)(seq, spendless if spendless is not None and socket.hides_spend else html)
            except Exception:
                logger.exception("Could not send a live update to a socket of debate %s", self.debate_id)


class EventFeed:
    """The process's listening connection and its hubs; it listens while any socket watches."""

    def __init__(self) -> None:
        self.hubs: dict[str, DebateHub] = {}
        self.listening = asyncio.Event()
        self.task: asyncio.Task | None = None

    def join(self, debate_id, socket: Socket) -> DebateHub:
        if self.task is None or self.task.done():
            self.listening.clear()
            self.task = asyncio.ensure_future(self._listen())
        key = str(debate_id)
        hub = self.hubs.get(key)
        if hub is None:
            hub = self.hubs[key] = DebateHub(self, key)
        hub.sockets.add(socket)
        return hub

    def leave(self, hub: DebateHub, socket: Socket) -> None:
        hub.sockets.discard(socket)
        if hub.sockets or self.hubs.get(hub.debate_id) is not hub:
            return
        del self.hubs[hub.debate_id]
        hub.task.cancel()
        if not self.hubs and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _listen(self) -> None:
        params = connections["default"].get_connection_params()
        for key in ("cursor_factory", "context"):  # Django's sync cursor and its adapters
            params.pop(key, None)
        failures = 0
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {broadcast.EVENTS_CHANNEL}")
                    await conn.execute(f"LISTEN {broadcast.PROGRESS_CHANNEL}")
                    if failures:
                        logger.warning("Live feed listening again; reading what was committed meanwhile")
                        for hub in self.hubs.values():
                            hub.catch_up()
                    failures = 0
                    self.listening.set()
                    async for notice in conn.notifies():
                        self._dispatch(notice.channel, notice.payload)
            except asyncio.CancelledError:
                raise
            except Exception:
                delay = RECONNECT_DELAYS[min(failures, len(RECONNECT_DELAYS) - 1)]
                logger.exception("Live feed lost its database connection; listening again in %.1f s", delay)
                failures += 1
                await asyncio.sleep(delay)

    def _dispatch(self, channel: str, payload: str) -> None:
        debate_id, _, rest = payload.partition(" ")
        hub = self.hubs.get(debate_id)
        if hub is None:
            return  # a debate nobody watches here
        number, carried, rest = rest.partition(" ")  # nothing carried: too long, read from the database
        if channel == broadcast.EVENTS_CHANNEL:
            kind, _, body = rest.partition(" ")
            hub.queue.put_nowait(("event", int(number), kind, json.loads(body) if carried else None))
        elif channel == broadcast.PROGRESS_CHANNEL:
            message_id = int(number)
            if message_id not in hub.progress:
                hub.queue.put_nowait(("progress", message_id))
            hub.progress[message_id] = rest if carried else None


_feeds: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, EventFeed] = weakref.WeakKeyDictionary()


def feed() -> EventFeed:
    """This event loop's feed (a server has one loop; tests start a loop per scenario)."""
    loop = asyncio.get_running_loop()
    if loop not in _feeds:
        _feeds[loop] = EventFeed()
    return _feeds[loop]
