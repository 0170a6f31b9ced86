"""Folding finished messages into the position ledger, on the run's lanes.

A main-channel update starts as soon as its turn is said, and waits for the turn's rows only
before writing its own; the next speaker waits for all but the last (await). Crux rooms' updates
run on a lane of their own, so a speaker never queues behind a room's.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future

from debates.blackboard.ledger import ledger_update, reflection_due, reflections_generate
from debates.models import Message

logger = logging.getLogger(__name__)


class LedgerFolding:
    def __init__(self, run) -> None:
        self.run = run  # orchestration.loop.DebateRun
        # Ledger updates this run queued, with their message (whose row, and so id, the persist
        # lane may not have written yet when it is queued).
        self._folding: list[tuple[Message, Future]] = []

    def fold(self, message: Message, written=None, before: list[Message] | None = None) -> None:
        """Queue the ledger update for a finished message (main channel or crux room). ``written``:
        the persist-lane jobs writing the turn before it and it, when they may not be done yet.
        ``before``: the messages the update reads before it, when the run holds them."""
        lane = "ledger" if message.room_id is None else "room_ledger"
        future = self.run.lanes.submit(lane, self._job, message, written, before)
        if future is not None:
            self._folding.append((message, future))

    def fold_left_by_dead_run(self) -> None:
        """Ledger updates a dead worker had in flight are queued again, in turn order."""
        missed = Message.objects.filter(debate=self.run.debate, status=Message.Status.COMPLETE, ledgered=False)
        for message in missed.select_related("debate", "persona").order_by("room_id", "turn"):
            self.fold(message)

    def fold_put_off(self) -> None:
        """Fold now, in turn order, the messages whose ledger update an outage put off (see
        ``ledger_update``) and that no queued or running update of this run will fold: a short
        outage on the side calls alone, which no main-channel call saw, never makes the run wait,
        so nothing else would fold them before the results are read. Called before the closings
        (their speakers read the whole ledger) and before the finish. If the model is still down,
        the update raises ModelUnavailable and the run waits it out as it would for a turn
        (run.py); the run after the wait folds what is left first."""
        run = self.run
        run.settle()  # every message queued so far has its row (and its id)
        busy = [message.id for message, future in self._folding if not future.done()]
        put_off = Message.objects.filter(debate=run.debate, status=Message.Status.COMPLETE, ledgered=False)
        for message_id in put_off.exclude(id__in=busy).order_by("room_id", "turn").values_list("id", flat=True):
            run.check_stop()
            logger.info(
                "Debate %s: folding message %s, whose ledger update an outage put off", run.debate.id, message_id
            )
            ledger_update(message_id=message_id, names=run.names, put_off_outages=False)

    def wait(self, lag: int, rooms: bool = False) -> None:
        # The speaker sees the last message verbatim anyway, so its ledger update (still running
        # beside this turn) may lag by one; everything older must be in. Crux rooms' updates are
        # awaited only where the whole ledger is due (the closings).
        self.run.lanes.wait("ledger", lag=lag)
        if rooms:
            self.run.lanes.wait("room_ledger")

    def _job(self, message: Message, written=None, recent: list[Message] | None = None) -> None:
        try:
            self._update(message, written, recent)
        finally:
            # The message and what the ledger made of it, embedded beside the turns for later recall.
            self.run.recall.embed_later()

    def _update(self, message: Message, written=None, recent: list[Message] | None = None) -> None:
        run = self.run
        if not written:
            # Written (a crux room's turn, or a main-channel one whose rows are in): the message
            # and the names the run holds, not read back.
            ledger_update(message=message, names=run.names)
        else:
            # The update starts at once (the turns before this one in ``recent``, or written by then),
            # and writes once this one is written.
            *before, this = written
            for future in before:
                future.result()
            ledger_update(
                message=message,
                before_write=this.result,
                names=run.names,
                record_with=run.record_later,
                recent=recent,
            )
        # A reflection is a second model call: it runs with the other notes, not on the ledger
        # lane the next speaker waits for.
        if reflection_due(debate_id=run.debate.id):
            run.lanes.submit(
                "notes", reflections_generate, debate=run.debate, round_number=(message.aspect_index or 0) + 1
            )
