"""Results and crux cards from the map, in the dialogue mode's shapes, with no model call."""

from crux.graph import AddStance, Concede, StanceDraft, graph_outcome
from crux.graph.results import graph_cards, graph_results
from tests.graph.builders import HAYES, SAYLOR, SCHIFF, bitcoin_graph, dispute, reason, table


def test_the_seed_example_gives_a_polarized_result_and_one_open_crux_card():
    graph = bitcoin_graph()
    outcome = graph_outcome(graph, [SAYLOR, HAYES])

    results = graph_results(graph, outcome, convergence={"reason": "labelling_stable", "rounds": 3})
    cards = graph_cards(graph, outcome)

    assert results["regime"] == "polarized" and results["graph"]["common_ground"] == []
    assert results["fault_lines"] == [
        {
            "question": "Is Bitcoin's adoption deterministic, whatever policy does?",
            "sides": {"YES": [SAYLOR], "NO": [HAYES], "NUANCED": []},
        }
    ]
    assert results["cruxes"][0]["question"] == "Is Bitcoin's adoption deterministic, whatever policy does?"
    assert results["evidence_ledger"] == []
    assert [(c["key"], c["resolved"]) for c in cards] == [("D1", False)]
    assert [(p["name"], p["position"]) for p in cards[0]["positions"]] == [(SAYLOR, "YES"), (HAYES, "NO")]


def test_objections_become_flip_conditions_and_concessions_resolution_paths():
    transcript = table(turns=20)
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [
            reason("S1", HAYES, "attacks", "Adoption stalled when rates rose.", 2, "rates drive adoption"),
            dispute("Is gold a better hedge?", (SAYLOR, "NO", "Pet rock.", 4), (SCHIFF, "YES", "Gold is money.", 6)),
        ],
        transcript,
    )
    graph.apply_batch([Concede(persona=SCHIFF, target="S4", turn=9, what="gold lagged")], transcript)
    outcome = graph_outcome(graph, [SAYLOR, HAYES, SCHIFF])

    results = graph_results(graph, outcome, convergence={"reason": "no_new_edges", "rounds": 4})
    cards = graph_cards(graph, outcome)

    assert results["flip_conditions"] == [
        {"persona": SAYLOR, "question": graph.disputes["D1"].question, "falsifier": "Adoption stalled when rates rose."}
    ]
    assert {
        "question": "Is gold a better hedge?",
        "path": f"{SCHIFF} conceded: gold lagged",
        "resolved": True,
    } in results["resolution_paths"]
    assert results["regime"] == "partial"
    assert [(c["key"], c["resolved"]) for c in cards] == [("D1", False), ("D2", True)]
    assert cards[0]["positions"][0]["falsifier"] == "Adoption stalled when rates rose."
    assert cards[0]["diagnosis"] == "It rests on whether rates drive adoption"
    assert cards[1]["resolution"] == f"{SCHIFF} conceded: gold lagged."


def test_camps_in_the_results_describe_their_arguments():
    transcript = table(turns=20)
    graph = bitcoin_graph(transcript)
    graph.apply_batch([AddStance(dispute="D1", stance=StanceDraft(SCHIFF, "NO", "Policy rules.", 3))], transcript)
    outcome = graph_outcome(graph, [SAYLOR, HAYES, SCHIFF])

    camps = graph_results(graph, outcome, convergence={})["graph"]["camps"]

    assert [c["personas"] for c in camps] == [[HAYES, SCHIFF], [SAYLOR]]
    assert [(a["id"], a["side"], a["holder"]) for a in camps[0]["arguments"]] == [
        ("S2", "NO", HAYES),
        ("S3", "NO", SCHIFF),
    ]
