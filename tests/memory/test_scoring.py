"""The persona-memory retrieval score, on hand-made memories (no database)."""

import math

import pytest

from memory.scoring import Candidate, memories_pick, memories_score


def memory(id, *, hours_ago=0.0, similarity=0.5, importance=5, text="x" * 40):
    return Candidate(id=id, text=text, hours_ago=hours_ago, similarity=similarity, importance=importance)


def test_the_score_is_half_recency_three_relevance_two_importance_each_normalised():
    old_relevant = memory(1, hours_ago=100, similarity=0.9, importance=4)
    new_irrelevant = memory(2, hours_ago=0, similarity=0.3, importance=4)
    middle = memory(3, hours_ago=50, similarity=0.6, importance=10)

    scored = {s.candidate.id: s for s in memories_score([old_relevant, new_irrelevant, middle])}

    # Recency: 0.995^h, min-max normalised; relevance and importance min-max normalised.
    r100, r50 = 0.995**100, 0.995**50
    assert scored[2].recency == 1.0 and scored[1].recency == 0.0
    assert scored[3].recency == pytest.approx((r50 - r100) / (1 - r100))
    assert (scored[1].relevance, scored[2].relevance) == (1.0, 0.0)
    assert scored[3].relevance == pytest.approx(0.5)
    assert (scored[1].importance, scored[2].importance, scored[3].importance) == (0.0, 0.0, 1.0)
    for s in scored.values():
        assert s.score == pytest.approx(0.5 * s.recency + 3 * s.relevance + 2 * s.importance)
    # 3 + 0 + 0 = 3 for the relevant one; 0.5 for the new one; 3·0.5 + 2 + 0.5·0.44 for the middle.
    assert [s.candidate.id for s in memories_score([old_relevant, new_irrelevant, middle])] == [3, 1, 2]


def test_relevance_outweighs_recency_and_importance_breaks_a_tie():
    fresh = memory(1, hours_ago=0, similarity=0.70)
    relevant = memory(2, hours_ago=200, similarity=0.71)
    assert memories_score([fresh, relevant])[0].candidate.id == 2  # 3·1 > 0.5·1

    a, b = memory(1, importance=3), memory(2, importance=9)
    assert [s.candidate.id for s in memories_score([a, b])] == [2, 1]


def test_a_term_equal_for_everyone_counts_one_half():
    (only,) = memories_score([memory(1, hours_ago=5, similarity=0.8, importance=7)])
    assert (only.recency, only.relevance, only.importance) == (0.5, 0.5, 0.5)
    assert math.isclose(only.score, 0.25 + 1.5 + 1.0)


def test_the_budget_keeps_the_best_that_fit():
    long_best = memory(1, similarity=0.9, text="y" * 400)  # 101 tokens
    second = memory(2, similarity=0.8)
    third = memory(3, similarity=0.1)

    picked = memories_pick([long_best, second, third], budget_tokens=30)
    assert [s.candidate.id for s in picked] == [2, 3]
    assert [s.candidate.id for s in memories_pick([long_best, second, third], budget_tokens=500, top=2)] == [1, 2]
    assert memories_pick([], budget_tokens=100) == []
