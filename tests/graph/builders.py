"""Small builders for dispute-graph tests: a table of personas with who spoke which turn."""

from crux.graph import AddDispute, AddReason, Assumption, Concede, DisputeGraph, StanceDraft, Transcript

SAYLOR, HAYES, SCHIFF = "Michael Saylor", "Arthur Hayes", "Peter Schiff"


def table(*names: str, turns: int = 12) -> Transcript:
    """Everyone speaks in seat order: turn 1 is the first persona, turn 2 the second..."""
    names = names or (SAYLOR, HAYES, SCHIFF)
    return Transcript(participants=tuple(names), speakers={t: names[(t - 1) % len(names)] for t in range(1, turns + 1)})


def dispute(question: str, *stances: tuple[str, str, str, int], kind: str = "claim") -> AddDispute:
    """stances: (persona, side, claim, turn)."""
    return AddDispute(
        question=question,
        disagreement_type=kind,
        stances=tuple(StanceDraft(persona=p, side=s, claim=c, turn=t) for p, s, c, t in stances),
    )


def reason(stance: str, persona: str, relation: str, text: str, turn: int, *assumptions: str) -> AddReason:
    return AddReason(
        stance=stance,
        persona=persona,
        relation=relation,
        text=text,
        turn=turn,
        assumptions=tuple(Assumption(text=a, settling_question=f"Is it so that {a}?") for a in assumptions),
    )


def bitcoin_graph(transcript: Transcript | None = None) -> DisputeGraph:
    """The seed's example: two contradictory positions, and no attack edge proposed between them."""
    graph = DisputeGraph()
    result = graph.apply_batch(
        [
            dispute(
                "Is Bitcoin's adoption deterministic, whatever policy does?",
                (SAYLOR, "YES", "Bitcoin adoption is deterministic", 1),
                (HAYES, "NO", "Bitcoin success is contingent on policy mistakes", 2),
            )
        ],
        transcript or table(SAYLOR, HAYES),
        round_no=0,
    )
    assert not result.rejected, result.rejected
    return graph


__all__ = ["Concede", "bitcoin_graph", "dispute", "reason", "table", "SAYLOR", "HAYES", "SCHIFF"]
