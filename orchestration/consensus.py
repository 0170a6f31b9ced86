"""The Analyst/Critic point ledger and consensus score (seeds/dual-ai-debate.md, Proflow).

Pure Python: the mode folds each round's agreement assessment into the ledger, and the score is
read from the ledger, so a point restated in new words in a later round is matched to the earlier
one (normalised text similarity) instead of being counted twice.

    score = agreed / (agreed + open contested) * 100; no points -> 0 (and the debate continues);
    consensus when score >= CONSENSUS_SCORE and no contested point is still open.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from difflib import SequenceMatcher

CONSENSUS_SCORE = 85.0
SUMMARY_LIMIT_CHARS = 4_000
SIMILAR = 0.7  # at or above: the same point restated
AGREED, CONTESTED, UNVERIFIABLE = "agreed", "contested", "unverifiable"

_STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "with",
        "as",
        "by",
        "at",
        "from",
        "than",
        "then",
        "so",
        "do",
        "does",
        "did",
        "not",
        "no",
        "can",
        "could",
        "should",
        "would",
        "will",
        "may",
        "might",
        "must",
        "we",
        "you",
        "they",
        "he",
        "she",
        "i",
        "our",
        "your",
        "their",
        "there",
        "here",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "more",
        "most",
        "very",
        "just",
        "also",
        "only",
    ]
)


def normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _words(text: str) -> set[str]:
    return {word.rstrip("s") for word in normalised(text).split() if word not in _STOPWORDS}


def similarity(a: str, b: str) -> float:
    """How alike two statements of a point are, 0-1: the better of word overlap (order-free, so
    a reordered restatement matches) and character sequence similarity (catches small rewordings)."""
    words_a, words_b = _words(a), _words(b)
    overlap = len(words_a & words_b) / len(words_a | words_b) if words_a and words_b else 0.0
    return max(overlap, SequenceMatcher(None, normalised(a), normalised(b)).ratio())


@dataclass
class Point:
    text: str
    status: str
    note: str
    first_round: int
    last_round: int
    was_contested: bool = False  # contested in some round (a later agreement is a decision)
    from_memory: bool = False  # an established fact recalled from memory, agreed before round 1


class PointLedger:
    def __init__(self, points: list[Point] | None = None) -> None:
        self.points = list(points or [])

    @classmethod
    def from_dicts(cls, rows: list[dict]) -> PointLedger:
        return cls([Point(**row) for row in rows])

    def as_dicts(self) -> list[dict]:
        return [asdict(point) for point in self.points]

    def match(self, text: str) -> Point | None:
        best, best_score = None, SIMILAR
        for point in self.points:
            score = similarity(text, point.text)
            if score >= best_score:
                best, best_score = point, score
        return best

    def record(self, text: str, status: str, note: str, round_number: int) -> Point:
        """One assessed point: an earlier point it restates takes the new status, else it is new."""
        point = self.match(text)
        if point is None:
            point = Point(
                text=text.strip(), status=status, note=note, first_round=round_number, last_round=round_number
            )
            self.points.append(point)
        else:
            point.status, point.last_round = status, round_number
            point.note = note or point.note
        point.was_contested = point.was_contested or status == CONTESTED
        return point

    def fold(self, assessment, round_number: int) -> None:
        """An AgreementAssessment (orchestration.schemas) into the ledger."""
        for item in assessment.agreed:
            self.record(item.point, AGREED, item.reasoning, round_number)
        for item in assessment.disagreed:
            self.record(item.point, CONTESTED, item.counter_argument, round_number)
        for item in assessment.unverifiable:
            self.record(item.point, UNVERIFIABLE, item.reason, round_number)

    def with_status(self, status: str) -> list[Point]:
        return [point for point in self.points if point.status == status]

    @property
    def score(self) -> float:
        agreed, contested = len(self.with_status(AGREED)), len(self.with_status(CONTESTED))
        if agreed + contested == 0:
            return 0.0
        return round(agreed / (agreed + contested) * 100, 1)

    @property
    def consensus(self) -> bool:
        return self.score >= CONSENSUS_SCORE and not self.with_status(CONTESTED)


def condensed_summary(ledger: PointLedger, findings: list[str]) -> str:
    """Older messages condensed for the next turn: agreed, contested, decisions (points contested
    first and agreed later) and findings (one line per older message), at most SUMMARY_LIMIT_CHARS."""

    def listed(points) -> str:
        return "; ".join(point.text for point in points) or "none"

    decisions = [point for point in ledger.with_status(AGREED) if point.was_contested]
    summary = (
        f"Agreed: {listed(ledger.with_status(AGREED))}\n"
        f"Contested: {listed(ledger.with_status(CONTESTED))}\n"
        f"Decisions (contested, then agreed): {listed(decisions)}\n"
        "Findings:\n" + "\n".join(f"- {line}" for line in findings)
    )
    return summary if len(summary) <= SUMMARY_LIMIT_CHARS else summary[: SUMMARY_LIMIT_CHARS - 1] + "…"
