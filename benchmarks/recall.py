"""Top-10 recall latency and quality at scale: the query memory runs, on synthetic vectors.

For each size (rows), loads that many 512-dimension unit vectors (clustered: 1,000 random centres
plus noise, so neighbours exist as they do for real text) into a table shaped like memory_insight
(owner, project, embedding model, vector) with the same indexes (HNSW m=16, ef_construction=64,
vector_cosine_ops; b-tree on owner, project, model), then times the recall query with the owner
filter, exactly as memory/services/insights.py runs it (hnsw.iterative_scan = strict_order,
ef_search 64, ORDER BY cosine distance LIMIT 10), for two kinds of owner:

    big owner   holds half of all rows (the HNSW index is what answers)
    small owner one of 500 owners sharing the other half (the planner picks the b-tree: exact)

with two kinds of query: "near" (a stored vector of the owner's plus noise: a related question)
and "far" (a random direction: a question unlike anything stored, the hard case for HNSW),
and compares each answer with the exact top 10 (brute force in numpy over that owner's rows):
recall@10. Reports the index build time, p50/p95 latency and recall@10 per size and owner kind.

    .venv/bin/python benchmarks/recall.py [--sizes 10000,100000] [--queries 200] [--ef-search 64]

Uses its own embedded PostgreSQL (.faultline/bench-recall) unless DATABASE_URL is set.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench-recall"))

DIMENSIONS = 512
CENTRES = 1000
SMALL_OWNERS = 500
MODEL = "bench-model"
EF_SEARCH = 64  # what memory/services/insights.py uses; --ef-search to try others
QUERY = (
    "SELECT id FROM bench_insight WHERE owner_id = %s AND project_id = %s AND embedding_model = %s "
    "AND embedding IS NOT NULL ORDER BY embedding <=> %s LIMIT 10"
)


def database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    from faultline.embedded import postgres_url

    return postgres_url()


def synthetic(rows: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(vectors, owner ids): half the rows to owner 1, the rest spread over owners 2..501."""
    centres = rng.standard_normal((CENTRES, DIMENSIONS)).astype(np.float32)
    vectors = centres[rng.integers(0, CENTRES, rows)] + 0.6 * rng.standard_normal((rows, DIMENSIONS)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.where(rng.random(rows) < 0.5, 1, rng.integers(2, 2 + SMALL_OWNERS, rows))
    return vectors, owners


def load(conn, vectors: np.ndarray, owners: np.ndarray) -> tuple[float, float]:
    """(load seconds, index build seconds)."""
    from pgvector.psycopg import register_vector

    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    register_vector(conn)
    conn.execute("DROP TABLE IF EXISTS bench_insight")
    conn.execute(
        f"CREATE TABLE bench_insight (id bigserial PRIMARY KEY, owner_id integer NOT NULL, project_id integer, "
        f"embedding_model varchar(80) NOT NULL, embedding vector({DIMENSIONS}))"
    )
    started = time.perf_counter()
    with (
        conn.cursor() as cursor,
        cursor.copy(
            "COPY bench_insight (owner_id, project_id, embedding_model, embedding) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy,
    ):
        copy.set_types(["int4", "int4", "varchar", "vector"])
        for owner, vector in zip(owners.tolist(), vectors, strict=True):
            copy.write_row((owner, owner, MODEL, vector))
    conn.commit()
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    conn.execute("SET maintenance_work_mem = '2GB'")
    conn.execute("SET max_parallel_maintenance_workers = 1")  # two cores, shared
    conn.execute(
        "CREATE INDEX bench_insight_hnsw ON bench_insight USING hnsw (embedding vector_cosine_ops) "
        "WITH (m = 16, ef_construction = 64)"
    )
    conn.execute("CREATE INDEX bench_insight_scope ON bench_insight (owner_id, project_id, embedding_model)")
    conn.execute("ANALYZE bench_insight")
    conn.commit()
    return loaded, time.perf_counter() - started


def measure(conn, vectors, owners, ids, owner_kind: str, query_kind: str, queries: int, rng, ef_search: int) -> dict:
    if owner_kind == "big":
        picks = [1] * queries
    else:
        picks = rng.integers(2, 2 + SMALL_OWNERS, queries).tolist()
    latencies, recalls, plans = [], [], set()
    for owner in picks:
        mine = np.flatnonzero(owners == owner)
        if query_kind == "near":  # a question close to something the owner has (noise of norm 0.3)
            noise = (0.3 / np.sqrt(DIMENSIONS)) * rng.standard_normal(DIMENSIONS).astype(np.float32)
            query = vectors[rng.choice(mine)] + noise
        else:  # "far": a random direction, near nothing stored (the hard case for HNSW)
            query = rng.standard_normal(DIMENSIONS).astype(np.float32)
        query /= np.linalg.norm(query)
        exact = set(ids[mine[np.argsort(-(vectors[mine] @ query))[:10]]].tolist())
        with conn.transaction():
            conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            conn.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            started = time.perf_counter()
            found = [row[0] for row in conn.execute(QUERY, (owner, owner, MODEL, query)).fetchall()]
            latencies.append((time.perf_counter() - started) * 1000)
            if len(plans) < 2:
                plan = " ".join(r[0] for r in conn.execute("EXPLAIN " + QUERY, (owner, owner, MODEL, query)).fetchall())
                plans.add(
                    "hnsw" if "bench_insight_hnsw" in plan else "b-tree + sort" if "scope" in plan else "seq scan"
                )
        recalls.append(len(exact & set(found)) / len(exact))  # an owner with fewer than 10 rows: all of them
    latencies.sort()
    return {
        "owner rows": int(np.mean([np.count_nonzero(owners == o) for o in set(picks)])),
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "recall": statistics.mean(recalls),
        "plan": "/".join(sorted(plans)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef-search", type=int, default=EF_SEARCH)
    args = parser.parse_args()
    import psycopg
    from pgvector.psycopg import register_vector

    # No server-side prepared statements (Django does not use them either): a generic plan would
    # choose the b-tree and sort half the table, hiding what the planner does for each query.
    conn = psycopg.connect(database_url(), prepare_threshold=None)
    rng = np.random.default_rng(7)
    print(f"{'rows':>9} | {'load s':>7} | {'index s':>8} | {'owner':>5} | {'query':>5} | {'owner rows':>10} | "
          f"{'p50 ms':>7} | {'p95 ms':>7} | {'recall@10':>9} | plan")  # fmt: skip
    for size in (int(n) for n in args.sizes.split(",")):
        vectors, owners = synthetic(size, rng)
        loaded, built = load(conn, vectors, owners)
        register_vector(conn)
        ids = np.array([row[0] for row in conn.execute("SELECT id FROM bench_insight ORDER BY id").fetchall()])
        for kind, query_kind in (("big", "near"), ("small", "near"), ("big", "far")):
            row = measure(conn, vectors, owners, ids, kind, query_kind, args.queries, rng, args.ef_search)
            print(
                f"{size:>9,} | {loaded:>7.1f} | {built:>8.1f} | {kind:>5} | {query_kind:>5} | {row['owner rows']:>10,} | "
                f"{row['p50']:>7.2f} | {row['p95']:>7.2f} | {row['recall']:>9.3f} | {row['plan']}",
                flush=True,
            )
    conn.execute("DROP TABLE IF EXISTS bench_insight")
    conn.commit()


if __name__ == "__main__":
    main()
