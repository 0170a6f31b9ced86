"""Concessions shrink the map: stances given up and reasons withdrawn leave it, and a dispute
left with one side dissolves."""

from crux.graph import Concede, graph_outcome
from tests.graph.builders import HAYES, SAYLOR, SCHIFF, bitcoin_graph, reason, table


def test_giving_up_a_stance_removes_it_its_reasons_and_the_one_sided_dispute():
    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch(
        [
            reason("S1", SAYLOR, "supports", "Fixed supply.", 1),
            reason("S1", HAYES, "attacks", "Adoption stalled in 2022.", 2),
        ],
        transcript,
    )
    assert len(graph) == 4

    result = graph.apply_batch([Concede(persona=SAYLOR, target="S1", turn=3, what="adoption can stall")], transcript)

    assert len(graph) == 0 and not graph.disputes
    assert result.removed == ["D1", "R1", "R2", "S1", "S2"]
    assert graph.settled == [
        {
            "dispute": "D1",
            "question": "Is Bitcoin's adoption deterministic, whatever policy does?",
            "disagreement_type": "claim",
            "answer": "NO",
            "holders": [HAYES],
            "claims": [{"persona": HAYES, "claim": "Bitcoin success is contingent on policy mistakes"}],
            "conceded_by": SAYLOR,
            "what": "adoption can stall",
            "round": 0,
            "turn": 3,
        }
    ]
    trail = graph.concessions[0]
    assert trail["effect"] == "gave up stance" and trail["target"] == "S1" and trail["settled"]["answer"] == "NO"


def test_conceding_the_opponents_stance_gives_up_your_own():
    graph = bitcoin_graph()

    graph.apply_batch([Concede(persona=HAYES, target="S1", turn=4, what="it is deterministic")], table(SAYLOR, HAYES))

    assert graph.settled[0]["answer"] == "YES" and graph.concessions[0]["target"] == "S2"


def test_a_dispute_with_someone_left_on_each_side_stays():
    transcript = table()
    graph = bitcoin_graph(transcript)
    graph.apply_batch([reason("S2", SCHIFF, "supports", "Policy made gold too.", 3)], transcript)
    from crux.graph import AddStance, StanceDraft

    graph.apply_batch([AddStance(dispute="D1", stance=StanceDraft(SCHIFF, "NO", "Policy decides.", 3))], transcript)
    graph.apply_batch([Concede(persona=HAYES, target="S2", turn=5)], transcript)

    assert set(graph.stances) == {"S1", "S3"} and "D1" in graph.disputes
    assert not graph.settled and "R1" not in graph.reasons  # R1 hung off Hayes's stance


def test_withdrawing_your_own_reason_removes_it():
    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch([reason("S1", HAYES, "attacks", "Adoption stalled in 2022.", 2)], transcript)

    result = graph.apply_batch([Concede(persona=HAYES, target="R1", turn=4, what="2022 was a blip")], transcript)

    assert result.removed == ["R1"] and graph.concessions[0]["effect"] == "withdrew"
    assert set(graph.stances) == {"S1", "S2"}


def test_granting_an_objection_defeats_your_stance():
    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch([reason("S1", HAYES, "attacks", "Adoption stalled in 2022.", 2)], transcript)
    assert graph_outcome(graph).labels == {"S1": "UNDEC", "S2": "UNDEC", "R1": "UNDEC"}

    graph.apply_batch([Concede(persona=SAYLOR, target="R1", turn=3, what="2022 stalled")], transcript)

    outcome = graph_outcome(graph)
    assert outcome.labels == {"S1": "OUT", "S2": "IN", "R1": "IN"}
    assert outcome.disputes[0]["status"] == "resolved" and outcome.disputes[0]["winner"] == "NO"
    assert outcome.regime == "consensus"


def test_granting_a_supporting_reason_makes_it_common_ground_without_settling_the_dispute():
    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch([reason("S1", SAYLOR, "supports", "The supply is fixed at 21 million.", 1)], transcript)

    graph.apply_batch([Concede(persona=HAYES, target="R1", turn=2, what="supply is fixed")], transcript)

    outcome = graph_outcome(graph)
    assert [item["text"] for item in outcome.common_ground] == ["The supply is fixed at 21 million."]
    assert outcome.labels["S1"] == outcome.labels["S2"] == "UNDEC"


def test_you_cannot_concede_what_is_on_your_own_side_or_twice():
    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch([reason("S1", SAYLOR, "supports", "Fixed supply.", 1)], transcript)

    result = graph.apply_batch(
        [
            Concede(persona=HAYES, target="R1", turn=2),
            Concede(persona=HAYES, target="R1", turn=4),
            Concede(persona=SAYLOR, target="S9", turn=3),
        ],
        transcript,
    )

    assert [r["reason"] for r in result.rejected] == [
        "no stance or reason 'S9' in the map",
        f"{HAYES} already granted R1",
    ]
