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


LONG_NAMES = [
    "The Central-Bank Institutionalist",
    "The Hard-Money Maximalist",
    "A Persona With A Very Long Name Indeed",
    "Extraordinarily-Hyphenated-Singlewordname",
    "The Macro Trader",
    "Bo",
]


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_no_two_names_overlap_and_none_is_cut_off_from_two_to_six_personas():
    from debates.position_map import NODE_RADIUS, label_box

    for count in range(2, 7):
        for names in (LONG_NAMES[:count], LONG_NAMES[-count:], [LONG_NAMES[0]] * count):
            personas = [SimpleNamespace(id=i, name=name, seat=i) for i, name in enumerate(names)]
            drawn = position_map(personas, {})
            boxes = [label_box(node) for node in drawn["nodes"]]
            circles = [
                (n.x - NODE_RADIUS, n.y - NODE_RADIUS, n.x + NODE_RADIUS, n.y + NODE_RADIUS) for n in drawn["nodes"]
            ]
            left, top, width, height = (float(v) for v in drawn["view_box"].split())
            for i, box in enumerate(boxes):
                assert all(line and len(line) <= 16 for line in drawn["nodes"][i].lines), drawn["nodes"][i].lines
                assert left <= box[0] and box[2] <= left + width and top <= box[1] and box[3] <= top + height
                for j, other in enumerate(boxes):
                    assert i == j or not overlaps(box, other), (count, names[i], names[j])
                for circle in circles:
                    assert not overlaps(box, circle), (count, names[i])


def test_a_long_name_is_wrapped_on_two_lines_and_what_does_not_fit_ends_in_an_ellipsis():
    from debates.position_map import label_lines

    assert label_lines("The Central-Bank Institutionalist") == ["The Central-Bank", "Institutionalist"]
    assert label_lines("A Persona With A Very Long Name Indeed") == ["A Persona With A", "Very Long Name…"]
    assert label_lines("Extraordinarily-Hyphenated-Singlewordname") == ["Extraordinarily…"]
    assert label_lines("Bo") == ["Bo"]
