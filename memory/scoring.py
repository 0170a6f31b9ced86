"""Which persona memories a persona gets: the Generative Agents retrieval score, with the weights of
their code (seeds/debate-memory-architecture.md, phase 5):

    score = 0.5 * recency + 3 * relevance + 2 * importance

Recency decays by 0.995 per hour since the memory was made or last recalled (Generative Agents'
decay per game hour; here per hour of debate time, which is wall-clock time between debates).
Inside one debate (earlier_pick) it decays by 0.99 per item said or established since, the
seed's decay^(position in the time-sorted list), and only candidates at or above the embedding
model's relevance floor are scored at all: when nothing earlier is relevant, nothing is recalled,
however much budget is left.
Each term is min-max normalised to 0-1 over the candidates, as theirs is; a term on which every
candidate is equal counts 0.5 for all. Then the best go in, in score order, until the token budget
is spent. Plain Python: no Django.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

RECENCY_WEIGHT, RELEVANCE_WEIGHT, IMPORTANCE_WEIGHT = 0.5, 3.0, 2.0
DECAY_PER_HOUR = 0.995
DECAY_PER_ITEM = 0.99
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Candidate:
    id: int
    text: str
    hours_ago: float  # since made, or since last recalled
    similarity: float  # cosine similarity to the query
    importance: int  # 1-10


@dataclass(frozen=True)
class Scored:
    candidate: Candidate
    recency: float  # each term normalised to 0-1
    relevance: float
    importance: float
    score: float


def _normalised(values: list[float]) -> list[float]:
    low, high = min(values), max(values)
    if math.isclose(low, high):
        return [0.5] * len(values)
    return [(v - low) / (high - low) for v in values]


def memories_score(candidates: list[Candidate], *, decay: float = DECAY_PER_HOUR) -> list[Scored]:
    """Every candidate with its three normalised terms and its score, best first (ties: newer first).
    Recency is ``decay`` to the power of ``hours_ago`` (or of whatever age unit the caller counts in)."""
    if not candidates:
        return []
    recency = _normalised([decay ** max(0.0, c.hours_ago) for c in candidates])
    relevance = _normalised([c.similarity for c in candidates])
    importance = _normalised([float(c.importance) for c in candidates])
    scored = [
        Scored(c, rec, rel, imp, RECENCY_WEIGHT * rec + RELEVANCE_WEIGHT * rel + IMPORTANCE_WEIGHT * imp)
        for c, rec, rel, imp in zip(candidates, recency, relevance, importance, strict=True)
    ]
    return sorted(scored, key=lambda s: (-s.score, s.candidate.hours_ago, s.candidate.id))


def memories_pick(
    candidates: list[Candidate], *, budget_tokens: int, top: int = 10, decay: float = DECAY_PER_HOUR
) -> list[Scored]:
    """The best-scoring memories whose texts fit in ``budget_tokens`` (one that does not fit is
    skipped, a shorter one after it may still go in), at most ``top``."""
    picked, used = [], 0
    for scored in memories_score(candidates, decay=decay):
        cost = math.ceil(len(scored.candidate.text) / CHARS_PER_TOKEN) + 1
        if used + cost > budget_tokens:
            continue
        picked.append(scored)
        used += cost
        if len(picked) == top:
            break
    return picked


def earlier_pick(candidates: list[Candidate], *, floor: float, budget_tokens: int, top: int = 5) -> list[Scored]:
    """What a turn recalls of its own debate: the candidates at least ``floor`` similar to the
    query (the embedding model's calibrated floor, memory/relevance.py), scored as above with
    ``hours_ago`` counting the items said or established since (DECAY_PER_ITEM each), the best
    that fit in ``budget_tokens``. None above the floor: nothing."""
    relevant = [c for c in candidates if c.similarity >= floor]
    return memories_pick(relevant, budget_tokens=budget_tokens, top=top, decay=DECAY_PER_ITEM)
