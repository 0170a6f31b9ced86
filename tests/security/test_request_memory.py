"""Many large bodies at once: the web process reads LARGE_BODIES_AT_ONCE of them at a time (the
rest wait, their reading paused) in chunks it maps and unmaps whole, so its resident memory comes
back to where it started. Before, sixteen 50 MB uploads at once took daphne from 224 MB to 427 MB
and it stayed there. benchmarks/request_memory.py prints the same figures."""

import pytest

from benchmarks.request_memory import measure

pytestmark = pytest.mark.slow


def test_after_16_parallel_50_mb_bodies_the_web_process_is_within_50_mb_of_where_it_started(db):
    figures = measure(parallel=16, body_mb=50, rounds=2)

    assert figures["statuses"] == [403]  # read to the end (a form without its CSRF token), none lost
    assert max(figures["afters"]) - figures["before"] <= 50, figures
