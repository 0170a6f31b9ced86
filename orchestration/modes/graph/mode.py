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

from crux.graph.crystallization import graph_crystallize, graph_state_for
from crux.graph.dispute_graph import DisputeGraph
from crux.graph.outcome import graph_outcome
from crux.graph.prompts import map_for_persona
from crux.graph.results import graph_cards, graph_results
from crux.services.rooms import card_post
from debates.models import Message
from debates.payloads import Card, CardPosition
from debates.regime import graph_evidence
from debates.state import SUITS
from gateways.llm.types import ModelError
from orchestration.context import SideWork, before_your_turn
from orchestration.final_answers import final_answers, verdict_fields
from orchestration.modes.discussion import DiscussionMode
from orchestration.results import seats_of, stance_series

logger = logging.getLogger(__name__)

CRYSTALLIZE_EVERY = 5  # main-channel turns per crystallization (the seed's "every 4-6 turns")
STAKE_PER_OPEN_STANCE = 0.5
CRYSTALLIZATION_WAIT_SECONDS = 300


class GraphMode(DiscussionMode):
    name = "graph"
    lanes = {"crystallizer": 1}

    def __init__(self, run) -> None:
        super().__init__(run)
        state = graph_state_for(debate=run.debate)
        self.scheduled_through = state.crystallized_through
        self.converged = state.converged
        # Openings, one round per window of the turn budget, closings.
        self.max_rounds = 2 + math.ceil(run.debate.max_turns / CRYSTALLIZE_EVERY)

    def phases(self):
        discussion = self.discussion
        return [
            discussion.start_planning,
            discussion.openings,
            self._crystallize_openings,
            discussion.await_planning,
            discussion.dialogue,
            self._log_convergence,
            discussion.closings,
            self._crystallize_final,
            self._await_crystallizations,
            discussion.await_notes,
        ]

    # ── hooks ─────────────────────────────────────────────────────────────────────────────────

    def before_pause(self) -> None:
        # The map a paused debate shows takes in every turn said (a cut-off window is redone anyway).
        self.run.lanes.wait("crystallizer", timeout=CRYSTALLIZATION_WAIT_SECONDS)

    def context(self, speaker, kind: str, *, aspect_index, addressee: str) -> str:
        # The dialogue's context, with the argument map placed before the turn instructions.
        context = super().context(speaker, kind, aspect_index=aspect_index, addressee=addressee)
        if kind == Message.Kind.OPENING:
            return context
        graph = self._map()
        if argument_map := map_for_persona(graph, graph.labels(), speaker.name):
            return before_your_turn(context, argument_map)
        return context

    def stakes(self, side: SideWork) -> dict[int, float]:
        """Whoever holds a stance in an open dispute has something at stake in the next turn."""
        graph = self._map()
        labels = graph.labels()
        ids = {s.name: s.persona.id for s in self.run.speakers}
        stakes: dict[int, float] = {}
        for stance in graph.stances.values():
            if labels.get(stance.id) == "UNDEC" and stance.holder in ids:
                stakes[ids[stance.holder]] = stakes.get(ids[stance.holder], 0.0) + STAKE_PER_OPEN_STANCE
        return stakes

    def keep_talking(self) -> bool:
        return not self._map_converged()

    def after_message(self, message: Message) -> None:
        self._crystallize(minimum=CRYSTALLIZE_EVERY)

    def wind_down(self) -> None:
        self._await_crystallizations(timeout=60)

    def results(self, status: str) -> dict:
        """Results from the map alone: no final model call."""
        state = graph_state_for(debate=self.run.debate)
        graph = DisputeGraph.from_dict(state.graph)
        outcome = graph_outcome(graph, [s.name for s in self.run.speakers])
        convergence = {"reason": state.converged or "max_rounds", "rounds": len(state.rounds)}
        results = graph_results(graph, outcome, convergence=convergence)
        debate = self.run.debate
        seats = seats_of(debate)
        answers = final_answers(debate=debate, seats=seats)
        evidence = graph_evidence(
            disputes=outcome.disputes,
            settled=len(graph.settled),
            common_ground=outcome.holds_common_ground,
            built=bool(state.rounds),  # every crystallization failed: the map says nothing
            answers=answers,
            yes_no=not debate.no_yes_no,
        )
        cruxes = [
            {
                "question": dispute["question"],
                "positions": [side for side, names in dispute.get("sides", {}).items() for _ in names],
                "resolved": dispute.get("status") != "open",
            }
            for dispute in outcome.disputes
        ]
        results.update(verdict_fields(debate=debate, evidence=evidence, answers=answers, cruxes=cruxes))
        results["stances"] = stance_series(debate=debate, seats=seats)
        return results

    def before_finish(self, results: dict) -> None:
        """The map's cruxes, dealt as crux cards in the same transaction as the finish."""
        graph = DisputeGraph.from_dict(graph_state_for(debate=self.run.debate).graph)
        outcome = graph_outcome(graph, [s.name for s in self.run.speakers])
        ids = {s.name: s.persona.id for s in self.run.speakers}
        for index, card in enumerate(graph_cards(graph, outcome)):
            card_post(
                debate_id=self.run.debate.id,
                card=Card(
                    id=f"graph-{card['key']}",
                    room_id=None,
                    question=card["question"],
                    positions=[
                        CardPosition(persona_id=ids.get(position["name"]), **position) for position in card["positions"]
                    ],
                    disagreement_type=card["disagreement_type"],
                    diagnosis=card["diagnosis"],
                    resolved=card["resolved"],
                    resolution=card["resolution"],
                    suit=SUITS[index % len(SUITS)],
                ),
            )

    # ── the map ───────────────────────────────────────────────────────────────────────────────

    def _map(self) -> DisputeGraph:
        return DisputeGraph.from_dict(graph_state_for(debate=self.run.debate).graph)

    def _crystallize_openings(self) -> None:
        self._crystallize(minimum=1)  # round 0: where everyone starts

    def _crystallize_final(self) -> None:
        self._crystallize(minimum=1, final=True)

    def _log_convergence(self) -> None:
        if self.converged:
            logger.info("Debate %s: the argument map converged (%s)", self.run.debate.id, self.converged)

    def _crystallize(self, *, minimum: int, final: bool = False) -> None:
        """Queue a crystallization once ``minimum`` turns have been said since the last one queued."""
        self.run.settle()  # the turns are counted in the database
        turns = list(
            self.run.main_messages()
            .filter(status=Message.Status.COMPLETE, turn__gt=self.scheduled_through)
            .values_list("turn", flat=True)
        )
        if len(turns) < minimum:
            return
        self.scheduled_through = max(turns)
        self.run.lanes.submit("crystallizer", self._crystallize_job, self.scheduled_through, final)

    def _crystallize_job(self, through_turn: int, final: bool) -> str:
        debate = self.run.debate
        try:
            return graph_crystallize(debate=debate, through_turn=through_turn, max_rounds=self.max_rounds, final=final)
        except ModelError as exc:  # the model's usual failures: one line, the next window retries
            logger.warning("Crystallization through turn %s of debate %s skipped: %s", through_turn, debate.id, exc)
            return ""
        except Exception:  # the map is an observer: a failed window never takes the debate down
            logger.exception("Crystallization through turn %s of debate %s failed", through_turn, debate.id)
            return ""

    def _map_converged(self) -> str:
        if not self.converged:
            for future in self.run.lanes.futures("crystallizer"):
                if future.done() and not future.cancelled() and future.result():
                    self.converged = future.result()
                    break
        return self.converged

    def _await_crystallizations(self, timeout: float = CRYSTALLIZATION_WAIT_SECONDS) -> None:
        self.run.lanes.wait("crystallizer", timeout=timeout)
