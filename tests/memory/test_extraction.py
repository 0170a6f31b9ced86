"""Which insights a finished debate leaves, from plain data (no database). A point is agreed by all
only when every participant's own final ledger holds it."""

from memory.extraction import insights_extract


def extract(**overrides):
    data = dict(participants={1, 2, 3}, agreements={}, decisions=[], reflections=[], cards=[])
    data.update(overrides)
    return {(d.kind, d.text): (d.confidence, d.agreed_by_all) for d in insights_extract(**data)}


def test_an_agreement_is_by_all_only_when_every_participants_own_ledger_holds_it():
    everyone = {
        1: [{"with": 2, "on": "Gold pays no yield."}],
        2: [{"with": 3, "on": "gold pays no yield"}],
        3: [{"with": 1, "on": "Gold pays no yield"}],
    }
    assert extract(agreements=everyone) == {("agreed", "Gold pays no yield."): (0.9, True)}

    # Persona 3 is on the far side of persona 2's agreement, but its own ledger never says so.
    two_of_three = {1: [{"with": 2, "on": "Gold pays no yield."}], 2: [{"with": 3, "on": "gold pays no yield"}]}
    assert extract(agreements=two_of_three) == {("agreed", "Gold pays no yield."): (0.9, False)}


def test_one_ledger_extraction_in_a_two_persona_debate_is_not_agreed_by_all():
    one_side = {1: [{"with": 2, "on": "Rates matter"}]}
    assert extract(participants={1, 2}, agreements=one_side) == {("agreed", "Rates matter"): (0.9, False)}

    both = {1: [{"with": 2, "on": "Rates matter"}], 2: [{"with": 1, "on": "rates matter."}]}
    assert extract(participants={1, 2}, agreements=both) == {("agreed", "Rates matter"): (0.9, True)}


def test_a_point_one_side_also_disputes_or_words_differently_is_not_agreed_by_all():
    agreements = {1: [{"with": 2, "on": "Rates matter"}], 2: [{"with": 1, "on": "Rates matter"}]}
    disputed = {2: [{"with": 1, "on": "Rates matter", "intensity": "mild"}]}
    assert extract(participants={1, 2}, agreements=agreements, disagreements=disputed) == {
        ("agreed", "Rates matter"): (0.9, False)
    }
    # The other side recorded the opposite claim in nearly the same words: not the same point.
    opposite = {1: [{"with": 2, "on": "Gold pays no yield"}], 2: [{"with": 1, "on": "Gold pays a yield"}]}
    assert extract(participants={1, 2}, agreements=opposite) == {
        ("agreed", "Gold pays no yield"): (0.9, False),
        ("agreed", "Gold pays a yield"): (0.9, False),
    }


def test_a_decision_is_agreed_by_all_only_when_every_ledger_holds_it():
    decision = "Keep gold under a fifth of reserves."
    assert extract(participants={1, 2}, decisions=[decision]) == {("decision", decision): (0.85, False)}
    held = {1: [{"with": 2, "on": decision}], 2: [{"with": 1, "on": decision.lower()}]}
    found = extract(participants={1, 2}, agreements=held, decisions=[decision])
    assert found == {("agreed", decision): (0.9, True)}  # the same point once, as the agreed one


def test_findings_cruxes_and_resolutions_get_proflows_confidences():
    cards = [
        {"question": "Is gold a hedge?", "diagnosis": "Horizon.", "resolved": True, "resolution": "Yes, long run.",
         "positions": {1: "YES", 2: "YES", 3: "YES"}},
        {"question": "Do rates decide?", "diagnosis": "Evidence.", "resolved": True, "resolution": "Mostly.",
         "positions": {1: "YES", 2: "YES"}},  # persona 3 was not in the room
        {"question": "Is silver money?", "diagnosis": "Definitions.", "resolved": False, "resolution": "",
         "positions": {1: "YES", 2: "NO"}},
    ]  # fmt: skip
    found = extract(reflections=[("They talk past each other.", 8), ("Minor.", 3)], cards=cards)
    assert found == {
        ("finding", "They talk past each other."): (0.8, False),
        ("crux", "Is gold a hedge? — Horizon."): (0.8, False),
        ("resolution", "Is gold a hedge? Yes, long run."): (0.85, True),
        ("crux", "Do rates decide? — Evidence."): (0.8, False),
        ("resolution", "Do rates decide? Mostly."): (0.85, False),
        ("crux", "Is silver money? — Definitions."): (0.8, False),
    }


def test_the_same_point_twice_is_one_insight():
    found = extract(decisions=["Same point", "same point."], agreements={1: [{"with": 2, "on": "Same point"}]})
    assert len(found) == 1
