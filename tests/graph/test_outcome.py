"""Common ground, camps, crux assumptions and regime, computed from the map by the engine."""

from hypothesis import given, settings
from hypothesis import strategies as st

from crux.graph import AddStance, Concede, DisputeGraph, StanceDraft, convergence_reason, graph_outcome
from tests.graph.builders import HAYES, SAYLOR, SCHIFF, bitcoin_graph, dispute, reason, table


def test_the_seed_example_is_polarized_not_common_ground():
    """ "Bitcoin adoption is deterministic" vs "Bitcoin success is contingent on policy mistakes",
    with no attack edge proposed between them: the old engine called both common ground."""
    outcome = graph_outcome(bitcoin_graph(), [SAYLOR, HAYES])

    assert outcome.common_ground == [] and outcome.grounded == []
    assert outcome.regime == "polarized"
    assert outcome.labels == {"S1": "UNDEC", "S2": "UNDEC"}
    assert [camp["personas"] for camp in outcome.camps] == [[SAYLOR], [HAYES]]
    assert [camp["arguments"] for camp in outcome.camps] == [["S1"], ["S2"]]
    assert outcome.disputed == ["S1", "S2"]
    crux = outcome.crux_assumptions[0]
    assert crux["source"] == "dispute" and crux["settling_question"].startswith("Is Bitcoin's adoption")


def test_camps_gather_personas_who_argue_the_same_way():
    transcript = table()
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [
            AddStance(dispute="D1", stance=StanceDraft(SCHIFF, "NO", "Policy decides everything.", 3)),
            dispute(
                "Is gold a better hedge?",
                (SAYLOR, "NO", "Gold is a pet rock.", 4),
                (SCHIFF, "YES", "Gold is money.", 6),
                (HAYES, "YES", "Gold has its moments.", 5),
            ),
        ],
        transcript,
    )

    outcome = graph_outcome(graph, [SAYLOR, HAYES, SCHIFF])

    assert [camp["personas"] for camp in outcome.camps] == [[HAYES, SCHIFF], [SAYLOR]]
    assert set(outcome.camps[0]["arguments"]) == {"S2", "S3", "S5", "S6"}
    assert outcome.preferred_count == 4 and outcome.regime == "polarized"


def test_crux_assumptions_rank_by_dependent_arguments_then_centrality():
    transcript = table(SAYLOR, HAYES, turns=20)
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [
            reason("S1", SAYLOR, "supports", "Network effects compound.", 1, "network effects beat policy"),
            reason("S2", HAYES, "supports", "Every rally followed money printing.", 2, "liquidity drives price"),
            reason(
                "S1",
                HAYES,
                "attacks",
                "Adoption stalled when rates rose.",
                4,
                "liquidity drives price",
                "rates matter more than halvings",
            ),
            reason(
                "S2", SAYLOR, "attacks", "Halvings drove the 2016 run, not policy.", 3, "network effects beat policy"
            ),
            reason("S2", SAYLOR, "attacks", "Nation states are buying.", 5, "network effects beat policy"),
        ],
        transcript,
    )

    outcome = graph_outcome(graph, [SAYLOR, HAYES])

    ranked = [(c["assumption"], c["count"]) for c in outcome.crux_assumptions]
    # "network effects beat policy": R4, R5 and S1 (through its supporting R1) and R1 itself = 4;
    # "liquidity drives price": R2, R3, S2 = 3; "rates matter": R3 alone.
    assert ranked == [
        ("network effects beat policy", 4),
        ("liquidity drives price", 3),
        ("rates matter more than halvings", 1),
    ]
    assert outcome.crux_assumptions[0]["settling_question"] == "Is it so that network effects beat policy?"
    assert outcome.crux_assumptions[0]["disputes"] == ["D1"]
    assert outcome.crux_assumptions[0]["centrality"] > 0


def test_centrality_breaks_ties_between_equally_shared_assumptions():
    transcript = table(SAYLOR, HAYES, turns=20)
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [
            reason("S2", HAYES, "supports", "Printing drove rallies.", 2, "a quiet premise"),
            reason("S1", HAYES, "attacks", "Rates stalled adoption.", 4, "a central premise"),
        ],
        transcript,
    )

    outcome = graph_outcome(graph, [SAYLOR, HAYES])

    # S2 depends on "a quiet premise" (through R1) and R1 itself: 2; R2 alone: 1... so force a tie:
    counts = {c["assumption"]: (c["count"], c["centrality"]) for c in outcome.crux_assumptions}
    assert counts["a quiet premise"][0] == 2 and counts["a central premise"][0] == 1
    graph.apply_batch([reason("S1", HAYES, "attacks", "Hashrate follows price.", 6, "a central premise")], transcript)
    outcome = graph_outcome(graph, [SAYLOR, HAYES])
    assert [c["assumption"] for c in outcome.crux_assumptions][:2] == ["a central premise", "a quiet premise"]


def test_a_dispute_settled_by_concession_makes_an_open_split_partial():
    transcript = table(SAYLOR, HAYES, turns=20)
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [dispute("Is gold a better hedge?", (SAYLOR, "NO", "Pet rock.", 3), (HAYES, "YES", "Sometimes.", 4))],
        transcript,
    )
    assert graph_outcome(graph).regime == "polarized"

    graph.apply_batch([Concede(persona=HAYES, target="S4", turn=6, what="gold is not the better hedge")], transcript)

    outcome = graph_outcome(graph)
    assert outcome.regime == "partial"
    assert outcome.settled[0]["answer"] == "NO" and outcome.concession_trail[0]["persona"] == HAYES


def test_an_empty_map_is_undetermined_never_consensus_with_everyone_unaligned():
    outcome = graph_outcome(DisputeGraph(), [SAYLOR, HAYES])

    assert outcome.regime == "undetermined" and outcome.camps == [] and outcome.unaligned == [SAYLOR, HAYES]


PEOPLE = (SAYLOR, HAYES, SCHIFF)


@st.composite
def random_maps(draw):
    """Any sequence of proposals, valid or not, from three speakers over thirty turns."""
    transcript = table(turns=30)
    graph = DisputeGraph()
    for _ in range(draw(st.integers(1, 6))):
        batch = []
        for _ in range(draw(st.integers(1, 6))):
            turn = draw(st.integers(1, 30))
            speaker = transcript.speakers[turn]
            choice = draw(st.integers(0, 3))
            if choice == 0:
                others = [p for p in PEOPLE if p != speaker]
                other = draw(st.sampled_from(others))
                other_turn = next(t for t, p in transcript.speakers.items() if p == other)
                batch.append(
                    dispute(
                        f"Question {draw(st.integers(0, 9))}?",
                        (speaker, "YES", "yes", turn),
                        (other, draw(st.sampled_from(["YES", "NO"])), "no", other_turn),
                    )
                )
            elif choice == 1:
                batch.append(
                    AddStance(
                        dispute=f"D{draw(st.integers(1, 6))}",
                        stance=StanceDraft(speaker, draw(st.sampled_from(["YES", "NO"])), "me too", turn),
                    )
                )
            elif choice == 2:
                batch.append(
                    reason(
                        f"S{draw(st.integers(1, 12))}",
                        speaker,
                        draw(st.sampled_from(["supports", "attacks"])),
                        f"because {draw(st.integers(0, 99))}",
                        turn,
                        f"premise {draw(st.integers(0, 3))}",
                    )
                )
            else:
                target = draw(st.sampled_from(["S", "R"])) + str(draw(st.integers(1, 12)))
                batch.append(Concede(persona=speaker, target=target, turn=turn))
        graph.apply_batch(batch, transcript)
    return graph


@settings(max_examples=150, deadline=None, database=None)
@given(random_maps())
def test_invariants_hold_for_any_sequence_of_proposals(graph):
    for dispute_id in graph.disputes:
        assert {s.side for s in graph.stances_of(dispute_id)} == {"YES", "NO"}
    assert all(s.dispute in graph.disputes for s in graph.stances.values())
    assert all(r.stance in graph.stances for r in graph.reasons.values())

    outcome = graph_outcome(graph, list(PEOPLE))

    for dispute_id in graph.disputes:
        sides_in_common_ground = {item["side"] for item in outcome.common_ground if item["dispute"] == dispute_id}
        assert len(sides_in_common_ground) <= 1, "contradictory stances reported as common ground"
    open_disputes = [d for d in outcome.disputes if d["status"] == "open"]
    decided_something = len(outcome.disputes) > len(open_disputes) or bool(outcome.settled)
    assert (outcome.regime == "consensus") == (not open_disputes and decided_something)
    assert (outcome.regime == "undetermined") == (not outcome.disputes and not outcome.settled)
    if open_disputes:
        assert len(outcome.camps) >= 2 and outcome.crux_assumptions


def test_convergence_needs_a_few_rounds_then_a_still_map():
    still = {"labels": {"S1": "UNDEC", "S2": "UNDEC"}, "new_attacks": 0}
    growing = {"labels": {"S1": "UNDEC"}, "new_attacks": 1}
    shrunk = {"labels": {}, "new_attacks": 0}

    assert convergence_reason([still, still], max_rounds=10) == ""  # too early to tell
    assert convergence_reason([growing, growing, still], max_rounds=10) == ""
    assert convergence_reason([still, still, still], max_rounds=10) == "labelling_stable"
    assert convergence_reason([growing, still, shrunk], max_rounds=10) == "no_new_edges"
    assert convergence_reason([growing, growing, growing], max_rounds=3) == "max_rounds"
