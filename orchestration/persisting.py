"""The persist lane: a main-channel turn's rows, and every model call's ModelCall row, written
on one thread while the next turn's request goes out. Every other lane's job waits for the
writes queued before it (orchestration.lanes, ``first``); whatever reads the main channel from
the database, or appends an event after a turn's, settles first."""

from __future__ import annotations

import logging
from collections.abc import Callable

from orchestration.lanes import Lanes

logger = logging.getLogger(__name__)

LANE = "persist"


class PersistLane:
    def __init__(self, lanes: Lanes, debate_id) -> None:
        self.lanes = lanes
        self.debate_id = debate_id
        self.writes: list = []  # futures, one per turn said, in order
        self._settled = 0  # writes known to be done
        self._records: list[dict] = []  # ModelCall rows handed over (record_later)

    def persist(self, write: Callable[[], None]) -> None:
        """Queue a finished main-channel turn's rows: the run goes on to the next turn at once (its
        speaker reads the turn from memory), and the next turn's first row waits for these."""
        self.writes.append(self.lanes.submit(LANE, write))

    def record_later(self, write: Callable[[], None]) -> None:
        """A model call's ModelCall row (so the next turn does not wait for it, and the turn's
        events that carry the spend come after it). Spend is never lost: a row the lane did not
        write (the run ended first) is written by write_records_left, last."""
        pending = {"write": write, "done": False}

        def job():
            write()
            pending["done"] = True

        self._records.append(pending)
        if self.lanes.submit(LANE, job) is None:
            job()

    def write_records_left(self) -> None:
        for pending in self._records:
            if not pending["done"]:
                try:
                    pending["write"]()
                    pending["done"] = True
                except Exception:
                    logger.exception("Debate %s: a model call's ledger row could not be written", self.debate_id)

    def settle(self) -> None:
        """Wait until every write queued so far is done; a failed write fails the run. Side lanes
        need not: their jobs start after the writes queued before them."""
        futures = self.lanes.futures(LANE)
        for future in futures[self._settled :]:
            future.result()
        self._settled = len(futures)

    def settle_quietly(self) -> None:
        try:
            self.settle()
        except Exception:
            logger.exception("Debate %s: a finished turn could not be written", self.debate_id)
