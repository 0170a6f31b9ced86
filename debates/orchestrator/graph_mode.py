"""The graph mode: the dialogue's openings, turns and closings, without crux rooms, beside an
argument map that a crystallizer builds from what was said (seeds/past-engines-and-crux-rooms.md
§2-3: the dispute-centric graph). The dialogue stops when the map stops changing, and the results
are computed from the map: no final model call.

Crystallization runs off the critical path, on its own thread, every few turns: it is one
structured call reading five turns and the map (several seconds on a strong model), and inline it
would freeze the live channel each time. Off the path, the next personas keep talking; the map, and
what each persona is shown of it, lags by at most one window, and convergence is noticed at the
next turn boundary after the crystallization that reaches it. Crystallizations run one after
another, each from the map the previous one left, and each starts where the last successful one
ended, so a failed call folds its turns into the next window instead of losing them.
"""

from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import connection, transaction
from django.utils import timezone

from crux.graph.crystallization import graph_crystallize, graph_state_for
from crux.graph.dispute_graph import DisputeGraph
from crux.graph.outcome import graph_outcome
from crux.graph.prompts import map_for_persona
from crux.graph.results import graph_cards, graph_results
from crux.regime import UNDETERMINED
from debates.models import Debate, Message
from debates.orchestrator.dialogue import DebateStopped, DialogueRun
from debates.orchestrator.messages import debate_totals
from debates.orchestrator.speaking import Speaker
from debates.services.events import event_append
from debates.state import SUITS, EventKind
from faultline.llm.types import ModelError

logger = logging.getLogger(__name__)

CRYSTALLIZE_EVERY = 5  # main-channel turns per crystallization (the seed's "every 4-6 turns")
STAKE_PER_OPEN_STANCE = 0.5
CRYSTALLIZATION_WAIT_SECONDS = 300


class GraphRun(DialogueRun):
    def __init__(self, debate: Debate) -> None:
        super().__init__(debate)
        self.crystallizer = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"graph-{debate.pk}")
        self.crystallizations: list[Future] = []
        state = graph_state_for(debate=debate)
        self.scheduled_through = state.crystallized_through
        self.converged = state.converged
        # Openings, one round per window of the turn budget, closings.
        self.max_rounds = 2 + math.ceil(debate.max_turns / CRYSTALLIZE_EVERY)

    def execute(self) -> None:
        try:
            self._begin()
            planning = self.detector.submit(self._plan_aspects_in_thread)
            self._openings()
            self._crystallize(minimum=1)  # round 0: where everyone starts
            planning.result()
            self._dialogue()
            self._closings()
            self._crystallize(minimum=1, final=True)
            self._await_crystallizations()
            self._wait_for_side_work()
            self._await_notes()
            self._finish(Debate.Status.COMPLETED)
        except DebateStopped:
            self._await_crystallizations(timeout=60)
            self._wait_for_side_work(timeout=60)
            self._await_notes()
            self._finish(Debate.Status.STOPPED)
        finally:
            # A crystallization still running (the debate failed mid-window) must not write the
            # map after this run lets go of the debate, or it could race a resumed run.
            self.crystallizer.shutdown(wait=True, cancel_futures=True)
            # Every other executor this run owns: the dialogue's ledgers, detector, notes and rooms.
            for executor in [v for v in vars(self).values() if isinstance(v, ThreadPoolExecutor)]:
                executor.shutdown(wait=False, cancel_futures=True)

    def _plan_aspects_in_thread(self) -> None:
        try:
            self._plan_aspects()
        finally:
            connection.close()

    # ── turns ─────────────────────────────────────────────────────────────────────────────────

    def _map(self) -> DisputeGraph:
        return DisputeGraph.from_dict(graph_state_for(debate=self.debate).graph)

    def _context(self, speaker: Speaker, kind: str, *, aspect_index, addressee: str) -> str:
        # The dialogue's context, with the argument map placed before the turn instructions.
        context = super()._context(speaker, kind, aspect_index=aspect_index, addressee=addressee)
        if kind == Message.Kind.OPENING:
            return context
        graph = self._map()
        if argument_map := map_for_persona(graph, graph.labels(), speaker.name):
            before, header, instruction = context.rpartition("── YOUR TURN ──")
            return f"{before}{argument_map}\n\n{header}{instruction}" if header else f"{context}\n\n{argument_map}"
        return context

    def _stakes(self) -> dict[int, float]:
        """Whoever holds a stance in an open dispute has something at stake in the next turn."""
        graph = self._map()
        labels = graph.labels()
        ids = {s.name: s.persona.id for s in self.speakers}
        stakes: dict[int, float] = {}
        for stance in graph.stances.values():
            if labels.get(stance.id) == "UNDEC" and stance.holder in ids:
                stakes[ids[stance.holder]] = stakes.get(ids[stance.holder], 0.0) + STAKE_PER_OPEN_STANCE
        return stakes

    def _keep_talking(self) -> bool:
        return not self._map_converged()

    def _after_message(self) -> None:
        self._crystallize(minimum=CRYSTALLIZE_EVERY)

    def _dialogue(self) -> None:
        super()._dialogue()
        if self.converged:
            logger.info("Debate %s: the argument map converged (%s)", self.debate.id, self.converged)

    def _crystallize(self, *, minimum: int, final: bool = False) -> None:
        """Queue a crystallization once ``minimum`` turns have been said since the last one queued."""
        turns = list(self._main_messages().filter(status=Message.Status.COMPLETE, turn__gt=self.scheduled_through)
                     .values_list("turn", flat=True))
        if len(turns) < minimum:
            return
        self.scheduled_through = max(turns)
        self.crystallizations.append(self.crystallizer.submit(self._crystallize_in_thread, self.scheduled_through, final))

    def _crystallize_in_thread(self, through_turn: int, final: bool) -> str:
        try:
            return graph_crystallize(debate=self.debate, through_turn=through_turn, max_rounds=self.max_rounds,
                                     final=final)
        except ModelError as exc:  # the model's usual failures: one line, the next window retries
            logger.warning("Crystallization through turn %s of debate %s skipped: %s", through_turn, self.debate.id, exc)
            return ""
        except Exception:  # the map is an observer: a failed window never takes the debate down
            logger.exception("Crystallization through turn %s of debate %s failed", through_turn, self.debate.id)
            return ""
        finally:
            connection.close()

    def _map_converged(self) -> str:
        if not self.converged:
            for future in self.crystallizations:
                if future.done() and future.result():
                    self.converged = future.result()
                    break
        return self.converged

    def _await_crystallizations(self, timeout: float = CRYSTALLIZATION_WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        for future in self.crystallizations:
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
            except Exception:
                logger.exception("A crystallization of debate %s did not finish", self.debate.id)

    # ── results ───────────────────────────────────────────────────────────────────────────────

    def _finish(self, status: str, *, evidence: list[dict] | None = None) -> None:
        """Results from the map alone; its cruxes are dealt as crux cards, then the debate ends."""
        state = graph_state_for(debate=self.debate)
        graph = DisputeGraph.from_dict(state.graph)
        outcome = graph_outcome(graph, [s.name for s in self.speakers])
        convergence = {"reason": state.converged or "max_rounds", "rounds": len(state.rounds)}
        results = graph_results(graph, outcome, convergence=convergence)
        if not state.rounds:
            # Every crystallization failed: an empty map says nothing about agreement, so it must
            # not read as consensus.
            results["regime"] = UNDETERMINED
        ids = {s.name: s.persona.id for s in self.speakers}
        with transaction.atomic():
            for index, card in enumerate(graph_cards(graph, outcome)):
                event_append(debate_id=self.debate.id, kind=EventKind.CARD_POSTED, payload={"card": {
                    "id": f"graph-{card['key']}", "room_id": None, "question": card["question"],
                    "positions": [{"persona_id": ids.get(p["name"]), **p} for p in card["positions"]],
                    "disagreement_type": card["disagreement_type"], "diagnosis": card["diagnosis"],
                    "resolved": card["resolved"], "resolution": card["resolution"], "suit": SUITS[index % len(SUITS)],
                }})
            Debate.objects.filter(pk=self.debate.pk).update(
                status=status, phase="done", results=results, finished_at=timezone.now())
            event_append(debate_id=self.debate.id, kind=EventKind.DEBATE_FINISHED,
                         payload={"status": status, "results": results, "totals": debate_totals(self.debate.id)})
