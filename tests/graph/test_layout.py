"""The drawing's layout: deterministic, every node placed once, labels carried for the colours."""

from crux.graph.layout import WIDTH, graph_layout
from tests.graph.builders import HAYES, SAYLOR, SCHIFF, bitcoin_graph, reason, table


def test_it_places_disputes_stances_and_reasons_in_rows():
    transcript = table()
    graph = bitcoin_graph(transcript)
    graph.apply_batch(
        [
            reason("S1", SAYLOR, "supports", "Fixed supply.", 1),
            reason("S1", HAYES, "attacks", "Adoption stalled in 2022. " * 6, 2),
        ],
        transcript,
    )

    drawing = graph_layout(graph.to_dict(), graph.labels())

    nodes = {node["id"]: node for node in drawing["nodes"]}
    assert list(nodes) == ["D1", "S1", "R1", "R2", "S2"]
    assert float(nodes["D1"]["y"]) < float(nodes["S1"]["y"]) == float(nodes["S2"]["y"]) < float(nodes["R1"]["y"])
    assert float(nodes["S1"]["x"]) < float(nodes["S2"]["x"])  # YES on the left
    assert all(float(n["x"]) >= 0 and float(n["x"]) + float(n["w"]) <= WIDTH for n in nodes.values())
    assert nodes["S1"]["state"] == "undec" and nodes["S1"]["lines"][0] == f"YES · {SAYLOR}"
    assert nodes["R2"]["lines"][-1].endswith("…") and len(nodes["R2"]["lines"]) == 2
    assert nodes["R2"]["title"].endswith("Adoption stalled in 2022.")  # the full text, for the tooltip
    assert [edge["kind"] for edge in drawing["edges"]] == ["support", "attack", "conflict"]
    assert drawing == graph_layout(graph.to_dict(), graph.labels())


def test_the_colours_follow_the_labelling():
    from crux.graph import Concede

    transcript = table(SAYLOR, HAYES)
    graph = bitcoin_graph()
    graph.apply_batch(
        [reason("S1", HAYES, "attacks", "Adoption stalled.", 2), Concede(persona=SAYLOR, target="R1", turn=3)],
        transcript,
    )

    states = {node["id"]: node["state"] for node in graph_layout(graph.to_dict(), graph.labels())["nodes"]}

    assert states == {"D1": "decided", "S1": "out", "R1": "in", "S2": "in"}


def test_an_empty_map_draws_nothing():
    drawing = graph_layout(None)

    assert drawing["nodes"] == [] and drawing["edges"] == []


def test_a_wide_dispute_shares_the_row():
    transcript = table(SAYLOR, HAYES, SCHIFF, "Dev Degen", turns=8)
    graph = bitcoin_graph(transcript)
    from crux.graph import AddStance, StanceDraft

    graph.apply_batch(
        [
            AddStance(dispute="D1", stance=StanceDraft(SCHIFF, "NO", "No.", 3)),
            AddStance(dispute="D1", stance=StanceDraft("Dev Degen", "YES", "Yes.", 4)),
        ],
        transcript,
    )

    stances = [n for n in graph_layout(graph.to_dict(), graph.labels())["nodes"] if n["kind"] == "stance"]

    assert [n["side"] for n in stances] == ["YES", "YES", "NO", "NO"]
    assert sum(1 for e in graph_layout(graph.to_dict(), graph.labels())["edges"] if e["kind"] == "conflict") == 4
