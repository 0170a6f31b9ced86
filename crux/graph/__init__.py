"""Graph mode's dispute-centric argument map (seeds/past-engines-and-crux-rooms.md §2-3).

Every formal claim hangs off an explicit binary dispute: Dispute -> Stance (YES/NO, one per
persona) -> Reason (supports or attacks a stance). A dispute exists only while it has a YES and a
NO. Opposite stances on one dispute attack each other, so contradictory positions can never both
be accepted, and never show up as common ground (the old graph mode's fake-consensus bug).

The modules here are plain Python, no Django, except ``models`` and ``crystallization``::

    graph = DisputeGraph()
    result = graph.apply_batch(mutations, transcript, round_no=1)   # validated, then applied
    outcome = graph_outcome(graph)                                  # common ground, camps, cruxes, regime
"""

from .dispute_graph import DisputeGraph
from .nodes import (
    AddDispute,
    AddReason,
    AddStance,
    Assumption,
    BatchResult,
    Concede,
    ProposeCrux,
    Reframe,
    Rejected,
    StanceDraft,
    Transcript,
)
from .outcome import GraphOutcome, convergence_reason, graph_outcome

__all__ = [
    "AddDispute",
    "AddReason",
    "AddStance",
    "Assumption",
    "BatchResult",
    "Concede",
    "DisputeGraph",
    "GraphOutcome",
    "ProposeCrux",
    "Reframe",
    "Rejected",
    "StanceDraft",
    "Transcript",
    "convergence_reason",
    "graph_outcome",
]
