"""The dialogue mode: aspects, openings, rounds in which personas answer each other, crux rooms
running beside the main channel, closings, results from the crux cards.

Each detection window is scanned by the digest that folds its new messages into the ledger (one
call, ledger_folding.py); what it found is tracked on the detection lane, in window order (a
speaker never waits for it), and the crux rooms run in parallel; the closings wait for every room, so their cards are in
the results and the closing statements can speak to them.
"""

from __future__ import annotations

import logging

from django.conf import settings

from crux.models import CruxCard, CruxRoom
from crux.services.detection import detection_apply, detection_run, window_digest
from debates.models import Message
from debates.regime import dialogue_evidence
from gateways.llm.types import ModelUnavailable
from orchestration import results
from orchestration.context import SideWork
from orchestration.final_answers import final_answers, verdict_fields
from orchestration.ledger_folding import ScanWindow
from orchestration.modes.discussion import DiscussionMode
from orchestration.patience import patiently
from orchestration.rooms import room_run

logger = logging.getLogger(__name__)

ROOM_WAIT_SECONDS = 900


class DialogueMode(DiscussionMode):
    name = "dialogue"
    lanes = {"detection": 1, "rooms": 4}

    def __init__(self, run) -> None:
        super().__init__(run)
        self.evidence: list[dict] | None = None

    def phases(self):
        discussion = self.discussion
        return [
            discussion.start_planning,
            self._restart_live_rooms,
            self._scan_missed_windows,
            discussion.openings,
            discussion.await_planning,
            discussion.dialogue,
            self._await_rooms,
            self._start_evidence_ledger,
            self._closings,
            self._await_evidence,
            discussion.await_notes,
        ]

    # ── hooks ─────────────────────────────────────────────────────────────────────────────────

    def stakes(self, side: SideWork) -> dict[int, float]:
        return side.stakes()

    def scan_window(self, message: Message) -> ScanWindow | None:
        every = settings.CRUX_DETECTION_EVERY_MESSAGES
        dialogue = self.discussion.channel.dialogue
        if not dialogue or dialogue[-1] is not message or len(dialogue) % every:
            return None
        return ScanWindow(len(dialogue) // every, dialogue[-settings.CRUX_DETECTION_WINDOW_MESSAGES :])

    def digest_window(self, scan: ScanWindow, messages: list[Message], *, before_write) -> None:
        """The window's digest folds its new messages into the ledger and scans it; what the scan
        found is tracked on the detection lane, in window order, where rooms open. In an outage the
        messages' updates are put off (ledger_folding.fold_put_off) and the window is scanned on its
        own on the detection lane, which waits the outage out (``_detect``)."""
        run = self.run
        try:
            found = window_digest(
                debate=run.debate,
                window=scan.number,
                window_messages=scan.messages,
                messages=messages,
                names=run.names,
                handles=run.handles,
                before_write=before_write,
                record_with=run.record_later,
            )
        except ModelUnavailable as exc:
            logger.warning(
                "Digest of window %s of debate %s put off (the model is unavailable): %s",
                scan.number,
                run.debate.id,
                exc,
            )
            run.lanes.submit("detection", self._detect, scan.number, scan.messages)
            return
        run.lanes.submit("detection", self._track, scan.number, scan.messages, found)

    def before_moving_on(self) -> None:
        # The windows scanned so far come first: a room the circling disagreement earned opens on it.
        self.run.lanes.wait(["ledger", "detection"], timeout=ROOM_WAIT_SECONDS)

    def wind_down(self) -> None:
        self.run.lanes.wait(["ledger", "detection", "rooms"], timeout=60)

    def results(self, status: str) -> dict:
        debate = self.run.debate
        evidence = self.evidence
        if evidence is None:  # stopped before the closings: the ledger is made now, inline
            evidence = results.evidence_ledger(debate=debate)
        found = results.debate_results(debate=debate, evidence_ledger=evidence)
        # The verdict on the question decided on: the cards, and the final answers with what
        # each NUANCED one hangs on (orchestration/final_answers.py).
        cards = [
            {
                "question": card.question,
                "positions": [p["position"] for p in card.positions.values()],
                "resolved": card.resolved,
            }
            for card in CruxCard.objects.filter(debate=debate).order_by("created_at")
        ]
        answers = final_answers(debate=debate, seats=results.seats_of(debate))
        judged = dialogue_evidence(cards, answers, yes_no=not debate.no_yes_no)
        return {**found, **verdict_fields(debate=debate, evidence=judged, answers=answers, cruxes=cards)}

    # ── steps ─────────────────────────────────────────────────────────────────────────────────

    def _track(self, window: int, messages: list[Message], scan) -> None:
        """What a window's digest found, tracked (staged commitment); the rooms it earned started."""
        try:
            rooms = detection_apply(
                debate=self.run.debate, window=window, message_ids=[message.id for message in messages], scan=scan
            )
            if scan is not None and scan.disagreements:
                self.run.recall.embed_later()  # the disputes it tracked, for staging to tell rewordings by
            for room in rooms:
                self._start_room(room.id)
        except Exception:  # detection is an observer; never let it take the debate down
            logger.exception("Detection window %s of debate %s failed", window, self.run.debate.id)

    def _detect(self, window: int, messages: list[Message]) -> None:
        """Scan one window. An outage is waited out here, on the detection lane (the next window
        queues behind it; no speaker waits for it), as a crux room waits out its own: a short one
        that the main channel never saw would otherwise leave the window unscanned for good. A run
        that ends meanwhile leaves it to the run that continues (``_scan_missed_windows``)."""
        message_ids = [message.id for message in messages]
        try:
            rooms = patiently(
                lambda: detection_run(debate_id=self.run.debate.id, window=window, message_ids=message_ids),
                cancelled=self.run.lanes.cancelled,
            )
            for room in rooms:
                self._start_room(room.id)
        except ModelUnavailable as exc:
            logger.warning("Detection window %s of debate %s left for a later run: %s", window, self.run.debate.id, exc)
        except Exception:  # detection is an observer; never let it take the debate down
            logger.exception("Detection window %s of debate %s failed", window, self.run.debate.id)

    def _start_room(self, room_id: int) -> None:
        self.run.lanes.submit("rooms", self._room, room_id)

    def _room(self, room_id: int) -> None:
        try:
            room_run(room_id=room_id, after_message=self.run.ledger.fold, cancelled=self.run.lanes.cancelled)
        finally:
            self.run.ledger.flush(room_id)  # the room's last exchanges, folded now it has ended

    def _scan_missed_windows(self) -> None:
        """Detection windows a dead worker never finished are scanned now, in order (staging counts
        windows in a row, so a skipped one could keep a room from opening)."""
        every = settings.CRUX_DETECTION_EVERY_MESSAGES
        dialogue = self.discussion.channel.dialogue
        for window in range(self.run.debate.detection_windows_done + 1, len(dialogue) // every + 1):
            messages = dialogue[: window * every][-settings.CRUX_DETECTION_WINDOW_MESSAGES :]
            self.run.lanes.submit("detection", self._detect, window, messages)

    def _restart_live_rooms(self) -> None:
        live = CruxRoom.objects.filter(debate=self.run.debate, status=CruxRoom.Status.LIVE)
        for room_id in live.values_list("id", flat=True):
            self._start_room(room_id)

    def _await_rooms(self) -> None:
        """Every room, and every detection window but the last (which _closings sends the first
        closing beside). Rooms opened meanwhile are queued while we wait, and waited for too."""
        self.run.lanes.wait(["ledger", "detection"], lag=1, timeout=ROOM_WAIT_SECONDS)
        self.run.lanes.wait("rooms", timeout=ROOM_WAIT_SECONDS)

    def _closings(self) -> None:
        """The closings wait for every room (their cards are in the results, and the closing
        statements speak to them) and so for the last detection window, which may open one; the
        first closing's request goes out while that window is scanned (Discussion.closings)."""
        self.discussion.closings(beside=self._side_work_done)

    def _side_work_done(self, wait: bool) -> bool:
        lanes = ["ledger", "detection", "rooms"]  # a window's digest queues its scan's tracking
        if wait:
            self.run.lanes.wait(lanes, timeout=ROOM_WAIT_SECONDS)
            return True
        return all(future.done() for lane in lanes for future in self.run.lanes.futures(lane))

    def _start_evidence_ledger(self) -> None:
        """The evidence ledger is extracted while the closings stream."""

        def extract():
            self.evidence = results.evidence_ledger(debate=self.run.debate)

        self.run.lanes.submit("extraction", extract)

    def _await_evidence(self) -> None:
        self.run.lanes.wait("extraction")
