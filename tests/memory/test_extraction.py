"""Which insights a finished debate leaves, from plain data (no database)."""

from memory.extraction import insights_extract


def extract(**overrides):
    data = dict(participants={1, 2, 3}, agreements={}, decisions=[], reflections=[], cards=[])
    data.update(overrides)
    return {(d.kind, d.text): (d.confidence, d.agreed_by_all) for d in insights_extract(**data)}


def test_an_agreement_is_by_all_only_when_its_sides_cover_every_participant():
    pairs = {1: [{"with": 2, "on": "Gold pays no yield."}], 2: [{"with": 3, "on": "gold pays no yield"}]}
    assert extract(agreements=pairs) == {("agreed", "Gold pays no yield."): (0.9, True)}

    just_two = {1: [{"with": 2, "on": "Rates matter"}]}
    assert extract(agreements=just_two) == {("agreed", "Rates matter"): (0.9, False)}
    assert extract(participants={1, 2}, agreements=just_two) == {("agreed", "Rates matter"): (0.9, True)}


def test_decisions_findings_and_cruxes_get_proflows_confidences():
    cards = [
        {"question": "Is gold a hedge?", "diagnosis": "Horizon.", "resolved": True, "resolution": "Yes, long run.",
         "positions": ["YES", "YES"]},
        {"question": "Do rates decide?", "diagnosis": "Evidence.", "resolved": False, "resolution": "",
         "positions": ["YES", "NO"]},
    ]  # fmt: skip
    found = extract(
        decisions=["Keep gold under a fifth.", ""],
        reflections=[("They talk past each other.", 8), ("Minor.", 3)],
        cards=cards,
    )
    assert found == {
        ("decision", "Keep gold under a fifth."): (0.85, True),
        ("finding", "They talk past each other."): (0.8, False),
        ("crux", "Is gold a hedge? — Horizon."): (0.8, False),
        ("resolution", "Is gold a hedge? Yes, long run."): (0.85, True),
        ("crux", "Do rates decide? — Evidence."): (0.8, False),
    }


def test_the_same_point_twice_is_one_insight():
    found = extract(decisions=["Same point", "same point"], agreements={1: [{"with": 2, "on": "Same point"}]})
    assert len(found) == 1
