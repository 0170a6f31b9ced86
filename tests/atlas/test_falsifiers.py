"""Which falsifiers become predictions: observable and anchored ones only, in words the rules never
saw (paraphrases, hedges, negations, decoys that ask for arguments or look back at the past)."""

import pytest

from atlas.falsifiers import condition, falsifier_checkable, prediction_draft


@pytest.mark.parametrize(
    "falsifier",
    [
        "If hash rate fell for two years straight.",
        "I would change my mind if inflation stayed above 4% through 2027.",
        "Seeing the unemployment rate climb past six percent while rates are cut",
        "If gold underperformed bonds for a decade in a row",
        "Wage growth dropping below 2 percent within a year of the next hike",
        "if house prices halve by 2030",
        "Only if the yield curve stays inverted for three consecutive quarters.",
        "If the index beat the market by 10% next year",
    ],
)
def test_an_observable_anchored_change_is_a_prediction(falsifier):
    assert falsifier_checkable(falsifier)
    draft = prediction_draft(falsifier)
    assert draft is not None and draft.claim and draft.claim[0].isupper() and not draft.claim.endswith(".")
    assert draft.claim.lower() in draft.settled_by.lower()


@pytest.mark.parametrize(
    "falsifier",
    [
        "A better argument than the one I heard today.",
        "If someone showed me convincing evidence that scarcity is irrelevant.",
        "A peer-reviewed study finding that wages fell 3% after rate rises",  # asks for research
        "Nothing would change my mind on this.",
        "Honestly, it depends on how you define value.",
        "Hard to say; maybe a different framing.",
        "If the 1970s had gone differently, with inflation falling by 5%.",  # a past that cannot recur
        "If prices rise.",  # a movement, but no anchor to check it by
        "Two more conversations like this one.",  # an anchor, but no observable change
        "",
        "If I valued stability over growth.",
        "No amount of data showing rates above 5% would move me.",
    ],
)
def test_argument_hedges_refusals_and_unanchored_claims_are_not(falsifier):
    assert not falsifier_checkable(falsifier)
    assert prediction_draft(falsifier) is None


@pytest.mark.parametrize(
    ("falsifier", "expected"),
    [
        ("I would change my mind if hash rate fell for two years straight.", "Hash rate fell for two years straight"),
        ("if house prices halve by 2030", "House prices halve by 2030"),
        ("Seeing wages drop 3% next year.", "Wages drop 3% next year"),
        ("Inflation above 4% in 2027", "Inflation above 4% in 2027"),
    ],
)
def test_the_claim_is_the_condition_without_its_lead_in(falsifier, expected):
    assert condition(falsifier) == expected
