"""Folding finished messages into the position ledger, on the run's lanes, a few at a time.

The messages of a channel are gathered and folded by one digest call per stretch (ledger.py):
DIGEST_MESSAGES main-channel messages, or a detection window's new ones, whose digest also scans
the window (the mode's ``scan_window``: crux/services/detection.py, window_digest); a crux room's
ROOM_DIGEST_MESSAGES, and what is left of it when it ends. A main-channel digest starts as soon
as its last turn is said and waits for the turns' rows only before writing; the next speaker
waits for all digests but the last (``wait``), so the ledger it reads may lag by one stretch plus
the messages not gathered yet: its recent exchange shows them verbatim. Crux rooms' digests run
on a lane of their own, so a speaker never queues behind a room's.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field

from debates.blackboard.ledger import RECENT_BEFORE, ledger_digest, reflection_due, reflections_generate
from debates.models import Message

logger = logging.getLogger(__name__)

DIGEST_MESSAGES = 3  # main-channel messages one digest folds when no detection window ends sooner
ROOM_DIGEST_MESSAGES = 6  # a crux room's: its two entries and two exchanges


@dataclass
class _Gathered:
    """Messages of one channel waiting for their digest, with what the digest needs of them."""

    messages: list[Message] = field(default_factory=list)
    written: list = field(default_factory=list)  # persist-lane futures writing them and the turn before
    before: list[Message] | None = None  # the channel's messages before the first one, when held


@dataclass(frozen=True)
class ScanWindow:
    """A detection window ending with the message just folded: its digest scans ``messages``."""

    number: int
    messages: list[Message]


class LedgerFolding:
    def __init__(self, run) -> None:
        self.run = run  # orchestration.loop.DebateRun
        # Digests this run queued, with their messages (whose rows, and so ids, the persist lane
        # may not have written yet when they are queued).
        self._folding: list[tuple[list[Message], Future]] = []
        self._gathered: dict[int | None, _Gathered] = {}  # room id (None: the main channel) -> waiting
        self._lock = threading.Lock()  # crux rooms fold from their own threads

    def fold(self, message: Message, written=None, before: list[Message] | None = None) -> None:
        """Gather a finished message (main channel or crux room) for its channel's next digest.
        ``written``: the persist-lane jobs writing the turn before it and it, when they may not be
        done yet. ``before``: the messages the digest reads before it, when the run holds them."""
        room = message.room_id
        scan = self.run.mode.scan_window(message) if room is None else None
        with self._lock:
            gathered = self._gathered.setdefault(room, _Gathered())
            if not gathered.messages:
                gathered.before = before
            gathered.messages.append(message)
            gathered.written += [future for future in written or [] if future not in gathered.written]
            size = DIGEST_MESSAGES if room is None else ROOM_DIGEST_MESSAGES
            due = scan is not None or len(gathered.messages) >= size
        if due:
            self.flush(room, scan=scan)

    def flush(self, room: int | None = None, *, scan: ScanWindow | None = None) -> None:
        """Queue the digest of what ``room``'s channel (None: the main channel) gathered; a scan
        is queued even with nothing gathered (its window's messages were folded already)."""
        with self._lock:
            gathered = self._gathered.pop(room, None)
        if gathered is None and scan is None:
            return
        gathered = gathered or _Gathered()
        lane = "ledger" if room is None else "room_ledger"
        future = self.run.lanes.submit(lane, self._job, gathered, scan)
        if future is not None:
            self._folding.append((gathered.messages, future))

    def flush_rooms(self) -> None:
        with self._lock:
            rooms = [room for room in self._gathered if room is not None]
        for room in rooms:
            self.flush(room)

    def fold_left_by_dead_run(self) -> None:
        """Messages a dead worker left unledgered are folded again, channel by channel, in turn order."""
        missed = Message.objects.filter(debate=self.run.debate, status=Message.Status.COMPLETE, ledgered=False)
        for message in missed.select_related("debate", "persona").order_by("room_id", "turn"):
            self.fold(message)
        self.flush()
        self.flush_rooms()

    def fold_put_off(self) -> None:
        """Fold now, in turn order, the messages whose digest an outage put off (see
        ``ledger_digest``) and that no queued or running digest of this run will fold: a short
        outage on the side calls alone, which no main-channel call saw, never makes the run wait,
        so nothing else would fold them before the results are read. Called before the closings
        (their speakers read the whole ledger) and before the finish. If the model is still down,
        the digest raises ModelUnavailable and the run waits it out as it would for a turn
        (run.py); the run after the wait folds what is left first."""
        run = self.run
        run.settle()  # every message queued so far has its row (and its id)
        with self._lock:
            waiting = [m for gathered in self._gathered.values() for m in gathered.messages]
        busy = [m.id for messages, future in self._folding if not future.done() for m in messages] + [
            m.id for m in waiting
        ]
        put_off = Message.objects.filter(debate=run.debate, status=Message.Status.COMPLETE, ledgered=False)
        channels: dict[int | None, list[Message]] = {}
        for message in put_off.exclude(id__in=busy).select_related("debate", "persona").order_by("room_id", "turn"):
            channels.setdefault(message.room_id, []).append(message)
        for room, messages in channels.items():
            size = DIGEST_MESSAGES if room is None else ROOM_DIGEST_MESSAGES
            for start in range(0, len(messages), size):
                run.check_stop()
                stretch = messages[start : start + size]
                logger.info(
                    "Debate %s: folding turns %s-%s, whose digest an outage put off",
                    run.debate.id,
                    stretch[0].turn,
                    stretch[-1].turn,
                )
                ledger_digest(messages=stretch, names=run.names, handles=run.handles, put_off_outages=False)

    def wait(self, lag: int, rooms: bool = False) -> None:
        # The speaker sees the last messages verbatim anyway, so the last digest (still running
        # beside this turn) may lag; everything older must be in. Before the closings (``rooms``)
        # and where the whole ledger is due (lag 0: the closings' end, a pause) what is gathered
        # is folded first; crux rooms' digests are awaited only there (the closings).
        if lag == 0 or rooms:
            self.flush()
        self.run.lanes.wait("ledger", lag=lag)
        if rooms:
            self.flush_rooms()
            self.run.lanes.wait("room_ledger")

    def _job(self, gathered: _Gathered, scan: ScanWindow | None) -> None:
        try:
            self._digest(gathered, scan)
        finally:
            # The messages and what the ledger made of them, embedded beside the turns for later recall.
            self.run.recall.embed_later()

    def _digest(self, gathered: _Gathered, scan: ScanWindow | None) -> None:
        run = self.run
        messages = gathered.messages

        def before_write():
            for future in gathered.written:
                future.result()

        if scan is not None:
            run.mode.digest_window(scan, messages, before_write=before_write)
        elif messages:
            # The digest starts at once (the turns before these in ``before``, or written by then),
            # and writes once they are written.
            ledger_digest(
                messages=messages,
                names=run.names,
                handles=run.handles,
                before=gathered.before[-RECENT_BEFORE:] if gathered.before is not None else None,
                before_write=before_write,
                record_with=run.record_later if messages[0].room_id is None else None,
            )
        if not messages:
            return
        # A reflection is a second model call: it runs with the other notes, not on the ledger
        # lane the next speaker waits for.
        if reflection_due(debate_id=run.debate.id):
            run.lanes.submit(
                "notes", reflections_generate, debate=run.debate, round_number=(messages[-1].aspect_index or 0) + 1
            )
