"""The position map's geometry: who agrees and disagrees with whom, from the position ledger."""

from types import SimpleNamespace

from debates.position_map import position_map

ADA, BRAM, CLEO = (SimpleNamespace(id=i, name=n, seat=s) for i, n, s in ((7, "Ada", 0), (8, "Bram", 1), (9, "Cleo", 2)))


def entry(agreements=(), disagreements=(), concessions=()):
    return {
        "agreements": [{"with": w, "on": on} for w, on in agreements],
        "disagreements": [{"with": w, "on": on, "intensity": i} for w, on, i in disagreements],
        "concessions": list(concessions),
        "shifts": [],
    }


def test_no_ledger_yet_gives_nodes_and_no_edges():
    drawn = position_map([ADA, BRAM, CLEO], {})
    assert [n.name for n in drawn["nodes"]] == ["Ada", "Bram", "Cleo"] and drawn["edges"] == []
    assert len({(n.x, n.y) for n in drawn["nodes"]}) == 3  # nobody drawn on top of anyone


def test_a_relation_recorded_by_both_sides_is_one_edge_with_its_points_once():
    drawn = position_map(
        [ADA, BRAM, CLEO],
        {
            "7": entry(disagreements=[(8, "rates", "mild")]),
            8: entry(disagreements=[(7, "Rates", "strong"), (7, "timing", "mild")], concessions=["gold is old"]),
        },
    )
    [edge] = drawn["edges"]
    assert (edge.kind, edge.a.name, edge.b.name, edge.points, edge.strong) == (
        "disagree",
        "Ada",
        "Bram",
        ["rates", "timing"],
        True,
    )
    assert drawn["nodes"][1].concessions == 1


def test_agreement_and_disagreement_between_one_pair_bow_apart():
    drawn = position_map([ADA, BRAM], {7: entry(agreements=[(8, "data")], disagreements=[(8, "horizon", "mild")])})
    agree, disagree = drawn["edges"]
    assert agree.kind == "agree" and disagree.kind == "disagree" and agree.path != disagree.path


def test_names_that_are_not_in_the_debate_or_the_speaker_itself_are_ignored():
    drawn = position_map(
        [ADA, BRAM],
        {
            7: entry(agreements=[(7, "myself"), (99, "a stranger"), ("x", "junk")]),
            "nobody": entry(agreements=[(8, "?")]),
        },
    )
    assert drawn["edges"] == []
