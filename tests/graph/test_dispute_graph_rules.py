"""The rules every crystallizer proposal is checked against before it touches the map."""

from crux.graph import AddStance, Concede, DisputeGraph, ProposeCrux, Reframe, StanceDraft
from crux.graph.dispute_graph import MAX_BATCH
from tests.graph.builders import HAYES, SAYLOR, SCHIFF, bitcoin_graph, dispute, reason, table


def test_a_dispute_needs_a_yes_and_a_no():
    graph = DisputeGraph()

    result = graph.apply_batch(
        [
            dispute("Is gold money?", (SAYLOR, "YES", "It was for millennia.", 1), (SCHIFF, "YES", "Always.", 3)),
            dispute("Is gold obsolete?", (SAYLOR, "NO", "Not yet.", 1)),
        ],
        table(),
    )

    assert not result.applied
    assert [r["reason"] for r in result.rejected] == ["a dispute needs at least one YES and one NO stance"] * 2
    assert not graph.disputes and not graph.stances


def test_it_rejects_free_floating_claims():
    """The old graph mode's bug: two contradictory claims entered as separate, unconnected nodes."""
    graph = DisputeGraph()

    result = graph.apply_batch(
        [
            dispute("Bitcoin adoption is deterministic", (SAYLOR, "YES", "Bitcoin adoption is deterministic", 1)),
            dispute(
                "Bitcoin success is contingent on policy mistakes",
                (HAYES, "YES", "Bitcoin success is contingent on policy mistakes", 2),
            ),
            reason("S1", HAYES, "attacks", "Policy drives every cycle.", 2),
        ],
        table(SAYLOR, HAYES),
    )

    assert len(result.rejected) == 3 and not result.applied
    assert "no stance 'S1' in the map" in result.rejected[2]["reason"]
    assert len(graph) == 0


def test_a_persona_holds_one_stance_per_dispute():
    graph = bitcoin_graph(table())

    result = graph.apply_batch(
        [
            AddStance(dispute="D1", stance=StanceDraft(SAYLOR, "YES", "Again: deterministic.", 4)),
            AddStance(dispute="D1", stance=StanceDraft(SAYLOR, "NO", "Actually not.", 4)),
            dispute("Is it inevitable?", (SCHIFF, "NO", "No.", 3), (SCHIFF, "YES", "Yes.", 6)),
        ],
        table(),
    )

    assert [r["reason"] for r in result.rejected] == [
        f"{SAYLOR} already says YES on D1",
        f"{SAYLOR} says YES on D1; changing sides is a concession first",
        "a persona holds one stance per dispute",
    ]


def test_changing_sides_is_a_concession_then_a_new_stance():
    graph = bitcoin_graph(table())

    result = graph.apply_batch(
        [
            AddStance(dispute="D1", stance=StanceDraft(SAYLOR, "NO", "Fine: policy matters.", 4)),
            Concede(persona=SAYLOR, target="S1", turn=4, what="adoption is not deterministic"),
        ],
        table(),
    )

    # Same turn: the concession applies first, so the new stance is allowed, and D1 (one NO, one
    # NO) dissolves as settled on NO before the stance could be added to it.
    assert result.applied[0]["op"] == "concede"
    assert graph.settled[0]["answer"] == "NO"
    assert "no dispute 'D1'" in result.rejected[0]["reason"]


def test_everyone_named_is_a_participant_who_spoke_that_turn():
    graph = DisputeGraph()
    transcript = table(SAYLOR, HAYES)

    result = graph.apply_batch(
        [
            dispute("Is it deterministic?", ("Satoshi", "YES", "Yes.", 1), (HAYES, "NO", "No.", 2)),
            dispute("Is it deterministic?", (SAYLOR, "YES", "Yes.", 2), (HAYES, "NO", "No.", 2)),
            dispute("Is it inevitable?", (SAYLOR, "YES", "Yes.", 1), (HAYES, "NO", "No.", 99)),
            dispute("Is it deterministic?", ("the michael SAYLOR", "YES", "Yes.", 1), (HAYES, "NO", "No.", 2)),
        ],
        transcript,
    )

    # (checked in turn order: the proposal citing turn 99 comes last)
    assert [r["reason"] for r in result.rejected] == [
        "'Satoshi' is not a participant",
        f"turn 2 was spoken by {HAYES}, not {SAYLOR}",
        "there is no turn 99",
    ]
    assert graph.stances["S1"].holder == SAYLOR


def test_nobody_supports_the_other_side_or_attacks_their_own():
    graph = bitcoin_graph()

    result = graph.apply_batch(
        [
            reason("S1", HAYES, "supports", "Fixed supply helps.", 2),
            reason("S2", HAYES, "attacks", "My own view is weak.", 2),
            reason("S1", SAYLOR, "attacks", "I doubt myself.", 1),
            reason("S2", SAYLOR, "attacks", "Adoption curves are S-shaped.", 1),
            reason("S1", SAYLOR, "supports", "Fixed supply.", 1),
        ],
        table(SAYLOR, HAYES),
    )

    assert sorted(r["reason"] for r in result.rejected) == [
        f"{HAYES} says NO on D1, so cannot attack S2",
        f"{HAYES} says NO on D1, so cannot support S1",
        f"{SAYLOR} says YES on D1, so cannot attack S1",
    ]
    assert [r.id for r in graph.reasons.values()] == ["R1", "R2"]


def test_a_rejected_mutation_changes_nothing_and_ids_are_never_reused():
    graph = bitcoin_graph()
    before = graph.to_dict()

    result = graph.apply_batch(
        [
            dispute(
                "Is Bitcoin's adoption deterministic, whatever policy does?",
                (SAYLOR, "YES", "Yes.", 1),
                (HAYES, "NO", "No.", 2),
            )
        ],
        table(SAYLOR, HAYES),
    )

    assert result.rejected[0]["reason"] == "that dispute is already in the map"
    assert graph.to_dict() == {**before, "recent_attacks": before["recent_attacks"]}
    graph.apply_batch([Concede(persona=SAYLOR, target="S1", turn=3)], table(SAYLOR, HAYES))
    graph.apply_batch(
        [dispute("Is it a hedge?", (SAYLOR, "YES", "Yes.", 3), (HAYES, "NO", "No.", 4))], table(SAYLOR, HAYES)
    )
    assert list(graph.disputes) == ["D2"] and list(graph.stances) == ["S3", "S4"]


def test_reframes_and_crux_proposals_name_an_existing_dispute():
    graph = bitcoin_graph()

    result = graph.apply_batch(
        [
            Reframe(dispute="D1", question="Would Bitcoin win without a monetary policy error?", persona=HAYES, turn=2),
            ProposeCrux(dispute="D1", persona=SAYLOR, turn=3),
            ProposeCrux(dispute="D9", persona=SAYLOR, turn=3),
        ],
        table(SAYLOR, HAYES),
    )

    assert graph.disputes["D1"].question == "Would Bitcoin win without a monetary policy error?"
    assert graph.disputes["D1"].crux_proposed_by == [SAYLOR]
    assert result.rejected == [
        {"op": "propose_crux", "summary": f"{SAYLOR} proposes D9 as the crux", "reason": "no dispute 'D9' in the map"}
    ]


def test_a_batch_has_a_size_limit():
    graph = bitcoin_graph()
    transcript = table(SAYLOR, HAYES, turns=40)

    result = graph.apply_batch(
        [reason("S2", SAYLOR, "attacks", f"Objection {n}.", 1) for n in range(MAX_BATCH + 2)], transcript
    )

    assert len(result.rejected) == MAX_BATCH + 2 - 4  # 4 reasons per stance, then the batch cap
    assert sum("more than" in r["reason"] for r in result.rejected) == 2


def test_the_map_survives_a_round_trip():
    graph = bitcoin_graph()
    graph.apply_batch(
        [
            reason("S1", SAYLOR, "supports", "Fixed supply.", 1, "scarcity drives value"),
            Concede(persona=HAYES, target="R1", turn=2, what="supply is fixed"),
        ],
        table(SAYLOR, HAYES),
    )

    again = type(graph).from_dict(graph.to_dict())

    assert again.to_dict() == graph.to_dict()
    assert again.attacks() == graph.attacks()
