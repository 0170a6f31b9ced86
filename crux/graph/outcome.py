"""What a dispute graph says, computed by the argumentation engine, never asked of a model. Pure.

- common ground: the grounded extension (what is accepted whatever anyone chooses), plus the
  disputes that dissolved because one side conceded;
- camps: preferred extensions, each the one that fits some personas' own arguments best;
- crux assumptions: the assumptions under the arguments the two main camps split on (their
  symmetric difference), ranked by how many of those arguments depend on each, then by how central
  those arguments are in the attack graph; each with the question that would settle it;
- regime: the map's own reading (debates.regime.map_regime): polarized (open disputes and little
  else), partial (open disputes beside decided ones or a real common ground), consensus (no open
  dispute, and something decided), undetermined (nothing on the map: an empty map is no consensus);
- the concession trail: who gave up what, in order, and what it did to the graph.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import asdict, dataclass, field

from argumentation import Semantics
from debates.regime import UNDETERMINED, map_regime

from .dispute_graph import DisputeGraph
from .nodes import NO, SUPPORTS, YES, _key

MAX_EXTENSIONS = 256  # the map holds at most 8 disputes, so 2^8 camps at worst
MAX_CRUX_ASSUMPTIONS = 3
PARTIAL_GROUND_SHARE = 1 / 3  # this much of the map accepted by everyone makes a split "partial"

# Convergence: the openings plus two dialogue windows before the map may be called settled, then
# this many crystallizations in a row that changed nothing.
MIN_ROUNDS = 3
STABLE_ROUNDS = 2


@dataclass
class GraphOutcome:
    labels: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=lambda: {"IN": 0, "OUT": 0, "UNDEC": 0})
    grounded: list[str] = field(default_factory=list)
    common_ground: list[dict] = field(default_factory=list)
    settled: list[dict] = field(default_factory=list)
    disputes: list[dict] = field(default_factory=list)
    camps: list[dict] = field(default_factory=list)
    unaligned: list[str] = field(default_factory=list)
    preferred_count: int = 0
    disputed: list[str] = field(default_factory=list)
    crux_assumptions: list[dict] = field(default_factory=list)
    holds_common_ground: bool = False  # enough of the map accepted by everyone to make a split partial
    regime: str = UNDETERMINED
    concession_trail: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def _argument_summary(graph: DisputeGraph, argument_id: str, labels: dict[str, str]) -> dict:
    dispute = graph.dispute_of(argument_id)
    if argument_id in graph.stances:
        stance = graph.stances[argument_id]
        kind, text, relation = "stance", stance.claim, ""
    else:
        reason = graph.reasons[argument_id]
        kind, text, relation = "reason", reason.text, reason.relation
    return {
        "id": argument_id,
        "kind": kind,
        "text": text,
        "holder": graph.holder_of(argument_id),
        "side": graph.side_of(argument_id),
        "relation": relation,
        "dispute": dispute.id,
        "question": dispute.question,
        "label": labels.get(argument_id, "UNDEC"),
    }


def _dispute_status(graph: DisputeGraph, dispute_id: str, labels: dict[str, str]) -> tuple[str, str]:
    """("open", "") while both sides stand; ("resolved", side) when one side's stances win."""
    stances = graph.stances_of(dispute_id)
    if any(labels[s.id] == "UNDEC" for s in stances):
        return "open", ""
    winners = {s.side for s in stances if labels[s.id] == "IN"}
    return "resolved", winners.pop() if len(winners) == 1 else ""


def _camps(graph: DisputeGraph, preferred: list[frozenset], personas: list[str]) -> tuple[list[dict], list[str]]:
    """Each persona joins the preferred extension holding most of their own arguments; personas
    with most at stake choose first, and ties go to a camp someone already chose (then to the
    first extension), so people who agree on everything they argued end up in one camp."""
    held = {p: {a for a in graph.arguments() if graph.holder_of(a) == p} for p in personas}
    order = sorted((p for p in personas if held[p]), key=lambda p: -len(held[p]))
    chosen: dict[int, list[str]] = {}
    for persona in order:
        best = max(range(len(preferred)), key=lambda i: (len(preferred[i] & held[persona]), i in chosen, -i))
        chosen.setdefault(best, []).append(persona)
    ranking = sorted(chosen.items(), key=lambda item: (-len(item[1]), min(personas.index(p) for p in item[1])))
    position = {a: i for i, a in enumerate(graph.arguments())}
    camps = [
        {
            "personas": sorted(members, key=personas.index),
            "arguments": sorted(preferred[index], key=position.__getitem__),
        }
        for index, members in ranking
    ]
    return camps, [p for p in personas if not held[p]]


def _depends_on(graph: DisputeGraph, argument_id: str) -> list:
    """The assumptions an argument rests on: its own, and for a stance those of its supporting reasons."""
    if argument_id in graph.reasons:
        return list(graph.reasons[argument_id].assumptions)
    stance = graph.stances[argument_id]
    supporting = [r for r in graph.reasons_of(stance.id) if r.relation == SUPPORTS]
    return list(stance.assumptions) + [a for r in supporting for a in r.assumptions]


def _settling_question(text: str) -> str:
    statement = re.sub(r"[.?!\s]+$", "", text)
    return f"What would show whether {statement[:1].lower() + statement[1:]}?"


def _crux_assumptions(graph: DisputeGraph, disputed: list[str], framework) -> list[dict]:
    degree = {a: len(framework.attackers_of(a)) + len(framework.targets_of(a)) for a in disputed}
    found: dict[str, dict] = {}
    for argument in disputed:
        for assumption in _depends_on(graph, argument):
            entry = found.setdefault(
                _key(assumption.text),
                {
                    "assumption": assumption.text,
                    "settling_question": "",
                    "dependents": [],
                    "disputes": [],
                    "source": "assumption",
                },
            )
            entry["settling_question"] = entry["settling_question"] or assumption.settling_question
            if argument not in entry["dependents"]:
                entry["dependents"].append(argument)
    if not found:
        # Nobody named an assumption: the disputes the camps split on are the cruxes themselves.
        for argument in disputed:
            dispute = graph.dispute_of(argument)
            entry = found.setdefault(
                dispute.id,
                {
                    "assumption": dispute.question,
                    "settling_question": dispute.question,
                    "dependents": [],
                    "disputes": [],
                    "source": "dispute",
                },
            )
            entry["dependents"].append(argument)
    for entry in found.values():
        entry["count"] = len(entry["dependents"])
        entry["centrality"] = sum(degree[a] for a in entry["dependents"])
        entry["disputes"] = list(dict.fromkeys(graph.dispute_of(a).id for a in entry["dependents"]))
        entry["settling_question"] = entry["settling_question"] or _settling_question(entry["assumption"])
    first_seen = {key: index for index, key in enumerate(found)}
    ranked = sorted(found.items(), key=lambda item: (-item[1]["count"], -item[1]["centrality"], first_seen[item[0]]))
    return [entry for _, entry in ranked[:MAX_CRUX_ASSUMPTIONS]]


def graph_outcome(graph: DisputeGraph, personas: list[str] | None = None) -> GraphOutcome:
    """personas: everyone at the table, in seat order (defaults to whoever holds an argument)."""
    framework = graph.framework()
    labels = {a: label.value for a, label in framework.grounded_labelling().items()}
    holders = [graph.holder_of(a) for a in graph.arguments()]
    personas = list(personas or dict.fromkeys(holders))
    personas += [p for p in dict.fromkeys(holders) if p not in personas]
    outcome = GraphOutcome(labels=labels, settled=list(graph.settled), concession_trail=list(graph.concessions))
    for label in labels.values():
        outcome.counts[label] += 1
    grounded = framework.grounded_extension()
    outcome.grounded = [a for a in graph.arguments() if a in grounded]
    outcome.common_ground = [_argument_summary(graph, a, labels) for a in outcome.grounded]

    for dispute in graph.disputes.values():
        status, winner = _dispute_status(graph, dispute.id, labels)
        stances = graph.stances_of(dispute.id)
        outcome.disputes.append(
            {
                "id": dispute.id,
                "question": dispute.question,
                "disagreement_type": dispute.disagreement_type,
                "status": status,
                "winner": winner,
                "crux_proposed_by": list(dispute.crux_proposed_by),
                "sides": {side: [s.holder for s in stances if s.side == side] for side in (YES, NO)},
            }
        )

    if len(graph):
        preferred = list(itertools.islice(framework.iter_extensions(Semantics.PREFERRED), MAX_EXTENSIONS))
        outcome.preferred_count = len(preferred)
        outcome.camps, outcome.unaligned = _camps(graph, preferred, personas)
    else:
        outcome.unaligned = personas
    if len(outcome.camps) >= 2:
        first, second = (set(camp["arguments"]) for camp in outcome.camps[:2])
        outcome.disputed = [a for a in graph.arguments() if a in first ^ second]
        outcome.crux_assumptions = _crux_assumptions(graph, outcome.disputed, framework)

    open_disputes = [d for d in outcome.disputes if d["status"] == "open"]
    outcome.holds_common_ground = bool(outcome.grounded) and len(outcome.grounded) >= PARTIAL_GROUND_SHARE * len(graph)
    outcome.regime = map_regime(
        open_disputes=len(open_disputes),
        decided=len(outcome.disputes) - len(open_disputes) + len(graph.settled),
        common_ground=outcome.holds_common_ground,
    )
    return outcome


def convergence_reason(rounds: list[dict], *, max_rounds: int) -> str:
    """Why the map is done growing, or "" if it is not.

    rounds: one entry per crystallization, oldest first (round 0 reads the openings), each with
    "labels" (argument id -> IN/OUT/UNDEC after it) and "new_attacks" (edges it added).
    """
    if len(rounds) >= max_rounds:
        return "max_rounds"
    if len(rounds) < max(MIN_ROUNDS, STABLE_ROUNDS + 1):
        return ""
    recent, before = rounds[-STABLE_ROUNDS:], rounds[-STABLE_ROUNDS - 1]
    if all(r["labels"] == before["labels"] for r in recent):
        return "labelling_stable"
    if all(r["new_attacks"] == 0 for r in recent):
        return "no_new_edges"
    return ""
