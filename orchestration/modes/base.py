"""What a mode is: the side lanes it needs, its phases, and the hooks the run loop calls.

A mode holds no loop of its own: its phases ask the run (orchestration.loop.DebateRun) for turns
with a TurnRequest. The modes built on the group discussion subclass
orchestration.modes.discussion.DiscussionMode, which adds that engine's hooks.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Max


class Mode:
    name = ""
    lanes: dict[str, int] = {}  # lane name -> threads, on top of the loop's BASE_LANES
    rounds_done = 0  # a mode that counts rounds (Analyst/Critic) keeps it; a pause event names it

    def __init__(self, run) -> None:
        self.run = run  # orchestration.loop.DebateRun

    def phases(self) -> list[Callable[[], None]]:
        raise NotImplementedError

    # ── hooks ─────────────────────────────────────────────────────────────────────────────────

    def turns_said(self) -> int:
        """The main channel's last turn number (a pause event names it)."""
        return self.run.main_messages().aggregate(last=Max("turn"))["last"] or 0

    def scan_window(self, message):
        """The detection window (ledger_folding.ScanWindow) ``message`` ends, whose digest also scans
        it (``digest_window``); None: the message is folded with the next few, unscanned."""
        return None

    def digest_window(self, scan, messages: list, *, before_write) -> None:
        """One digest call for a window ``scan_window`` named: folds ``messages`` into the ledger
        and scans the window (on the ledger lane; ``before_write`` waits for the messages' rows)."""
        raise NotImplementedError

    def wind_down(self) -> None:
        """The owner stopped the debate: let side work that belongs in the results finish."""

    def before_pause(self) -> None:
        """The run is about to pause: side work worth finishing first (the rest is cancelled and
        picked up from the log by the run that continues)."""

    def results(self, status: str) -> dict:
        raise NotImplementedError

    def before_finish(self, results: dict) -> None:
        """Runs inside the finish's transaction, just before the finished event (graph mode deals
        its cards here)."""
