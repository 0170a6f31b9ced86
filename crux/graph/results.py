"""A graph-mode debate's results and crux cards, in the shapes the dialogue mode's results view and
card column already render, computed from the map with no model call. Pure.

The mapping (seeds/argumentation-graph-dung.md, mapToDebateOutput): crux assumptions become the
cruxes, each with its settling question as a resolution path; disputes become fault lines; the
objections still standing against a stance become its holder's flip conditions (granting one
defeats the stance); open and settled disputes become crux cards.
"""

from __future__ import annotations

from .dispute_graph import DisputeGraph
from .nodes import ATTACKS, SUPPORTS
from .outcome import GraphOutcome

SUITS = ("♠", "♥", "♦", "♣")
MAX_CARDS = 5


def _objections(graph: DisputeGraph, stance_id: str) -> list[str]:
    holder = graph.stances[stance_id].holder
    return [r.text for r in graph.reasons_of(stance_id) if r.relation == ATTACKS and holder not in r.granted_by]


def _reasoning(graph: DisputeGraph, stance_id: str) -> str:
    stance = graph.stances[stance_id]
    support = [r.text for r in graph.reasons_of(stance_id) if r.relation == SUPPORTS]
    return " ".join([stance.claim, *support[:2]])


def _crux_for(dispute_id: str, outcome: GraphOutcome) -> dict | None:
    return next((c for c in outcome.crux_assumptions if dispute_id in c["disputes"]), None)


def graph_cards(graph: DisputeGraph, outcome: GraphOutcome) -> list[dict]:
    """Crux cards: disputes the camps still split on (those under the top crux assumptions first),
    then disputes decided in the map or settled by a concession."""
    crux_rank = {d: i for i, c in enumerate(outcome.crux_assumptions) for d in reversed(c["disputes"])}
    statuses = {d["id"]: d for d in outcome.disputes}
    order = sorted(
        graph.disputes.values(),
        key=lambda d: (
            statuses[d.id]["status"] != "open",
            crux_rank.get(d.id, len(crux_rank)),
            -len(d.crux_proposed_by),
        ),
    )
    cards = []
    for dispute in order:
        status = statuses[dispute.id]
        crux = _crux_for(dispute.id, outcome)
        stances = sorted(graph.stances_of(dispute.id), key=lambda s: s.side != "YES")
        if status["status"] == "open":
            diagnosis = (
                f"It rests on whether {crux['assumption'][:1].lower() + crux['assumption'][1:]}"
                if crux and crux["source"] == "assumption"
                else "Both sides still stand: neither side's reasons defeat the other's."
            )
            resolved, resolution = False, crux["settling_question"] if crux else ""
        else:
            winner = status["winner"]
            diagnosis = (
                f"The map decides it: every {('NO' if winner == 'YES' else 'YES')} stance is defeated."
                if winner
                else "Every stance on it is defeated."
            )
            resolved, resolution = True, f"{winner} stands." if winner else "Neither side stands."
        cards.append(
            {
                "key": dispute.id,
                "question": dispute.question,
                "disagreement_type": dispute.disagreement_type,
                "positions": [
                    {
                        "name": s.holder,
                        "position": s.side,
                        "reasoning": _reasoning(graph, s.id),
                        "falsifier": "; ".join(_objections(graph, s.id)[:2]),
                    }
                    for s in stances
                ],
                "diagnosis": diagnosis,
                "resolved": resolved,
                "resolution": resolution,
            }
        )
    for settled in graph.settled:
        conceded = f"{settled['conceded_by']} conceded" + (f": {settled['what']}" if settled["what"] else "")
        cards.append(
            {
                "key": settled["dispute"],
                "question": settled["question"],
                "disagreement_type": settled["disagreement_type"],
                "positions": [
                    {"name": c["persona"], "position": settled["answer"], "reasoning": c["claim"], "falsifier": ""}
                    for c in settled["claims"]
                ],
                "diagnosis": "Settled by concession; the dispute left the map.",
                "resolved": True,
                "resolution": conceded + ".",
            }
        )
    return cards[:MAX_CARDS]


def graph_results(graph: DisputeGraph, outcome: GraphOutcome, *, convergence: dict) -> dict:
    names = {a: graph.holder_of(a) for a in graph.arguments()}
    cruxes, resolution_paths = [], []
    for index, crux in enumerate(outcome.crux_assumptions):
        depends = f"{crux['count']} disputed argument{'s' if crux['count'] != 1 else ''} depend{'s' if crux['count'] == 1 else ''} on it"
        cruxes.append(
            {
                "question": crux["settling_question"],
                "disagreement_type": "premise" if crux["source"] == "assumption" else "claim",
                "diagnosis": f"The camps split on: {crux['assumption']} ({depends}).",
                "resolved": False,
                "resolution": "",
                "suit": SUITS[index % len(SUITS)],
            }
        )
        resolution_paths.append({"question": crux["assumption"], "path": crux["settling_question"], "resolved": False})
    for settled in graph.settled:
        path = f"{settled['conceded_by']} conceded" + (f": {settled['what']}" if settled["what"] else "")
        resolution_paths.append({"question": settled["question"], "path": path, "resolved": True})
    fault_lines = [{"question": d["question"], "sides": {**d["sides"], "NUANCED": []}} for d in outcome.disputes]
    flip_conditions = [
        {"persona": stance.holder, "question": graph.disputes[stance.dispute].question, "falsifier": objection}
        for stance in graph.stances.values()
        for objection in _objections(graph, stance.id)
    ]
    summaries = {item["id"]: item for item in outcome.common_ground}

    def describe(argument_id: str) -> dict:
        if argument_id in summaries:
            return summaries[argument_id]
        dispute = graph.dispute_of(argument_id)
        return {
            "id": argument_id,
            "kind": "stance" if argument_id in graph.stances else "reason",
            "text": graph.text_of(argument_id),
            "holder": names[argument_id],
            "side": graph.side_of(argument_id),
            "dispute": dispute.id,
            "question": dispute.question,
            "label": outcome.labels[argument_id],
        }

    return {
        "regime": outcome.regime,
        "cruxes": cruxes,
        "fault_lines": fault_lines,
        "flip_conditions": flip_conditions,
        "resolution_paths": resolution_paths,
        "evidence_ledger": [],
        "graph": {
            "common_ground": outcome.common_ground,
            "settled": outcome.settled,
            "camps": [
                {"personas": camp["personas"], "arguments": [describe(a) for a in camp["arguments"]]}
                for camp in outcome.camps
            ],
            "unaligned": outcome.unaligned,
            "crux_assumptions": outcome.crux_assumptions,
            "concession_trail": outcome.concession_trail,
            "counts": outcome.counts,
            "preferred_count": outcome.preferred_count,
            "disputes": outcome.disputes,
            "convergence": convergence,
        },
    }
