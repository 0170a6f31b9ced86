"""What a mode is: the side lanes it needs, its phases, and the hooks the run loop calls.

A mode holds no loop of its own. Defaults here are the plain group dialogue's; a mode overrides
only what it does differently.
"""

from __future__ import annotations

from collections.abc import Callable

from debates.models import Message
from orchestration.context import SideWork


class Mode:
    name = ""
    lanes: dict[str, int] = {}  # lane name -> threads, on top of the loop's BASE_LANES
    rounds_done = 0  # a mode that counts rounds (Analyst/Critic) keeps it; a pause event names it

    def __init__(self, run) -> None:
        self.run = run  # orchestration.loop.DebateRun

    def phases(self) -> list[Callable[[], None]]:
        raise NotImplementedError

    # ── hooks ─────────────────────────────────────────────────────────────────────────────────

    def context(self, speaker, kind: str, *, aspect_index, addressee: str) -> str:
        return self.run.base_context(speaker, kind, aspect_index=aspect_index, addressee=addressee)

    def keep_talking(self) -> bool:
        return True

    def after_message(self, message: Message) -> None:
        """Runs after each main-channel message of the dialogue phase (off the critical path).

        The message may not be written yet: a job queued on a lane starts once it is; code that
        reads the main channel from the database here calls ``self.run.settle()`` first."""

    def stakes(self, side: SideWork) -> dict[int, float]:
        """How much each persona has riding on the next turn (turn-taking weighs it). ``side``: what
        the side lanes wrote, read once at the turn boundary for this and the speaker's context."""
        return {}

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
