"""Whether the NUANCED answers of a debate hang on the same condition (debates/conditions.py): by
reference where the condition is something Faultline holds (the same id is the same condition,
whatever the words), else by meaning (the vectors of the conditions, a floor per embedding model),
with the polarity and number checks an embedding misses; without vectors, only the same words.

Paraphrases a capable model writes, and decoys that share the subject but not the condition."""

import math

import pytest

from debates.conditions import Condition, conditions_same, same_condition

FLOOR = 0.86


def at(similarity: float) -> tuple[list[float], list[float]]:
    """Two unit vectors whose cosine is ``similarity``."""
    return [1.0, 0.0], [similarity, math.sqrt(1 - similarity**2)]


def pair(a: str, b: str, similarity: float | None = None, refs=("", "")):
    vectors = at(similarity) if similarity is not None else (None, None)
    return Condition(a, ref=refs[0], vector=vectors[0]), Condition(b, ref=refs[1], vector=vectors[1])


CASES = [
    # (case, a, b, cosine or None, refs, same?)
    (
        "one condition reworded",
        "the fee revenue is spent on buses",
        "every cent the charge raises goes to buses",
        0.91,
        ("", ""),
        True,
    ),
    (
        "a paraphrase near the floor",
        "productivity holds up in a pilot",
        "output stays level during a trial period",
        0.861,
        ("", ""),
        True,
    ),
    ("the same subject, another condition", "the ramp is funded", "the ramp is built by 2027", 0.855, ("", ""), False),
    (
        "an unrelated condition",
        "the fee revenue is spent on buses",
        "the ring road is finished first",
        0.81,
        ("", ""),
        False,
    ),
    (
        "a negation the vectors miss",
        "the fee revenue is spent on buses",
        "the fee revenue is not spent on buses",
        0.92,
        ("", ""),
        False,
    ),
    (
        "a contraction is a negation too",
        "we can hire two engineers",
        "we can't hire two engineers",
        0.95,
        ("", ""),
        False,
    ),
    ("another number", "the fee stays under 5 pounds", "the fee stays under 15 pounds", 0.97, ("", ""), False),
    (
        "the same number in the same place",
        "a pilot of 6 months",
        "a six-month pilot, 6 months long",
        0.9,
        ("", ""),
        True,
    ),
    ("the same thing held, in other words", "x", "something else entirely", 0.2, ("X1", "X1"), True),
    ("two things held, alike in words", "the mentor proposal", "the mentor proposal", 0.99, ("X1", "X2"), False),
    (
        "no vectors: the same words",
        "The fee revenue is spent on buses.",
        "the fee revenue is spent on buses",
        None,
        ("", ""),
        True,
    ),
    (
        "no vectors: other words are not trusted",
        "the fee revenue is spent on buses",
        "every cent goes to buses",
        None,
        ("", ""),
        False,
    ),
    ("nothing said", "", "the fee revenue is spent on buses", 0.99, ("", ""), False),
]


@pytest.mark.parametrize(("case", "a", "b", "similarity", "refs", "same"), CASES, ids=[case[0] for case in CASES])
def test_two_conditions(case, a, b, similarity, refs, same):
    first, second = pair(a, b, similarity, refs)
    assert same_condition(first, second, floor=FLOOR) is same
    assert same_condition(second, first, floor=FLOOR) is same


def test_every_answer_must_hang_on_the_same_one():
    buses = Condition("the fee revenue is spent on buses", vector=[1.0, 0.0])
    reworded = Condition("the charge's money goes to buses", vector=at(0.93)[1])
    ring_road = Condition("the ring road is finished first", vector=at(0.5)[1])

    assert conditions_same([buses, reworded], floor=FLOOR)
    assert not conditions_same([buses, reworded, ring_road], floor=FLOOR)
    assert conditions_same([buses], floor=FLOOR)  # a condition is the same as itself
    assert not conditions_same([], floor=FLOOR)  # nothing to agree on
