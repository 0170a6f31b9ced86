"""The big owner's top-10 query at 1M rows, timed back to back and right after the 1 GB
brute-force product that benchmarks/recall.py once computed before each timed query (see
docs/benchmarks-history.md, "Long-term memory"). Needs the table kept by
`recall.py --sizes 1000000 --keep`.

    .venv/bin/python benchmarks/recall_interleaved.py
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench-recall"))

import numpy as np  # noqa: E402
import psycopg  # noqa: E402
import recall  # noqa: E402
from pgvector import HalfVector  # noqa: E402
from pgvector.psycopg import register_vector  # noqa: E402

QUERIES = 200
EF_SEARCH = 200


def main() -> None:
    conn = psycopg.connect(recall.database_url(), prepare_threshold=None)
    register_vector(conn)
    vectors, owners = recall.synthetic(1_000_000)
    mine = np.flatnonzero(owners == 1)
    theirs = vectors[owners == 1]
    for with_product in (False, True, False, True):
        rng = np.random.default_rng(11)  # the same queries in every pass
        latencies = []
        for _ in range(QUERIES):
            noise = (0.3 / np.sqrt(recall.DIMENSIONS)) * rng.standard_normal(recall.DIMENSIONS).astype(np.float32)
            query = vectors[rng.choice(mine)] + noise
            query /= np.linalg.norm(query)
            if with_product:
                np.argsort(-(theirs @ query))[:10]
            with conn.transaction():
                conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
                conn.execute(f"SET LOCAL hnsw.ef_search = {EF_SEARCH}")
                started = time.perf_counter()
                conn.execute(recall.QUERY, (1, 1, recall.MODEL, HalfVector(query))).fetchall()
                latencies.append((time.perf_counter() - started) * 1000)
        latencies.sort()
        print(
            f"{'after the 1 GB product' if with_product else 'back to back':>22}: "
            f"p50 {statistics.median(latencies):.2f} ms, p95 {latencies[int(0.95 * (QUERIES - 1))]:.2f} ms, "
            f"load {os.getloadavg()[0]:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
