"""Top-10 recall latency and quality at scale: the query memory runs, on synthetic vectors.

For each size (rows), loads that many 512-dimension unit vectors (clustered: 1,000 random centres
plus noise, so neighbours exist as they do for real text) into a table shaped like memory_insight
(owner, project, embedding model, a halfvec(512) embedding) with the same indexes (HNSW m=16,
ef_construction=128, halfvec_cosine_ops; b-tree on owner, project, model), then times the recall
query with the owner filter, exactly as memory/services/insights.py runs it (hnsw.iterative_scan =
strict_order, hnsw.ef_search as the app sets it, ORDER BY cosine distance LIMIT 10), for two kinds
of owner:

    big owner   holds half of all rows (the HNSW index is what answers)
    small owner one of 500 owners sharing the other half (the planner picks the b-tree: exact)

with two kinds of query: "near" (a stored vector of the owner's plus noise: a related question)
and "far" (a random direction: a question unlike anything stored, the hard case for HNSW),
and compares each answer with the exact top 10 (brute force in numpy over that owner's float32
vectors): recall@10, and "sim gap", how much lower the mean cosine similarity of the 10 found is
than that of the exact 10 (0 when they are the same; small when the misses are near-ties), and
"< 0.5", the share of queries that found fewer than half of the exact 10 (the exact answers are worked out before
the timed queries, which then run back to back, as a server answers them). Reports
the index build time, p50/p95 latency, recall@10, the gap and the 1-minute load average per size,
owner kind and ef_search.

    .venv/bin/python benchmarks/recall.py [--sizes 10000,100000] [--queries 200] [--ef-search 100,200]
        [--storage vector]   # the old layout (float32 column, vector_cosine_ops), for comparison
        [--keep] [--reuse]   # keep the table; measure a kept table again without loading it
        [--warm-up 1000]     # run that many other queries first (a warm-cache figure)
        [--small-only]       # only small owners (the b-tree path): no HNSW build
        [--m 16 --ef-construction 128]  # other graph parameters than the app's, to try them

Uses its own embedded PostgreSQL (.faultline/bench-recall, configured as ops/embedded.py
configures the app's) unless DATABASE_URL is set.
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
EF_SEARCH = 200  # what memory/services/insights.py sets; --ef-search to try others
STORAGE = {  # column type -> HNSW operator class
    "halfvec": "halfvec_cosine_ops",  # what memory/models.py stores
    "vector": "vector_cosine_ops",  # the layout before 2026-11-25
}
QUERY = (
    "SELECT id FROM bench_insight WHERE owner_id = %s AND project_id = %s AND embedding_model = %s "
    "AND embedding IS NOT NULL ORDER BY embedding <=> %s LIMIT 10"
)


def database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    from ops.embedded import postgres_url

    return postgres_url()


def synthetic(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """(vectors, owner ids): half the rows to owner 1, the rest spread over owners 2..501. The same
    for the same size (seeded by it), so a kept table can be measured again (--reuse)."""
    rng = np.random.default_rng(rows)
    centres = rng.standard_normal((CENTRES, DIMENSIONS), dtype=np.float32)
    vectors = centres[rng.integers(0, CENTRES, rows)]
    vectors += 0.6 * rng.standard_normal((rows, DIMENSIONS), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owners = np.where(rng.random(rows) < 0.5, 1, rng.integers(2, 2 + SMALL_OWNERS, rows))
    return vectors, owners


def kept(conn, rows: int, storage: str) -> bool:
    """Whether bench_insight already holds this size in this layout, indexes built (--reuse)."""
    column = conn.execute(
        "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
        "WHERE attrelid = to_regclass('bench_insight') AND attname = 'embedding'"
    ).fetchone()
    if column is None or not column[0].startswith(storage + "("):
        return False
    indexes = conn.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'bench_insight'").fetchone()[0]
    return indexes == 3 and conn.execute("SELECT count(*) FROM bench_insight").fetchone()[0] == rows


def load(
    conn,
    vectors: np.ndarray,
    owners: np.ndarray,
    storage: str,
    hnsw: bool = True,
    m: int = 16,
    ef_construction: int = 128,
) -> tuple[float, float]:
    """(load seconds, index build seconds)."""
    from pgvector import HalfVector, Vector
    from pgvector.psycopg import register_vector

    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    register_vector(conn)
    conn.execute("DROP TABLE IF EXISTS bench_insight")
    conn.execute(
        f"CREATE TABLE bench_insight (id bigserial PRIMARY KEY, owner_id integer NOT NULL, project_id integer, "
        f"embedding_model varchar(80) NOT NULL, embedding {storage}({DIMENSIONS}))"
    )
    started = time.perf_counter()
    with (
        conn.cursor() as cursor,
        cursor.copy(
            "COPY bench_insight (owner_id, project_id, embedding_model, embedding) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy,
    ):
        copy.set_types(["int4", "int4", "varchar", storage])
        wrap = HalfVector if storage == "halfvec" else Vector
        for owner, vector in zip(owners.tolist(), vectors, strict=True):
            copy.write_row((owner, owner, MODEL, wrap(vector)))
    conn.commit()
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    conn.execute("SET maintenance_work_mem = '4GB'")  # the whole graph in memory: no slow second phase
    conn.execute("SET max_parallel_maintenance_workers = 1")  # two cores, shared
    if hnsw:  # only big owners' queries use it
        conn.execute(
            f"CREATE INDEX bench_insight_hnsw ON bench_insight USING hnsw (embedding {STORAGE[storage]}) "
            f"WITH (m = {m}, ef_construction = {ef_construction})"
        )
    conn.execute("CREATE INDEX bench_insight_scope ON bench_insight (owner_id, project_id, embedding_model)")
    conn.commit()
    built = time.perf_counter() - started
    conn.autocommit = True
    conn.execute("VACUUM (ANALYZE) bench_insight")  # what autovacuum does after a big load
    conn.autocommit = False
    return loaded, built


def warm_up(conn, vectors, owners, queries: int, ef_search: int, storage: str) -> None:
    """Run queries unlike the measured ones (another seed) so the pages the index visits most are
    in shared buffers, as on a server that has been answering for a while (no pg_prewarm in the
    embedded build)."""
    from pgvector import HalfVector, Vector

    rng = np.random.default_rng(len(vectors) + 2)
    for index in rng.integers(0, len(vectors), queries).tolist():
        query = vectors[index] + (0.3 / np.sqrt(DIMENSIONS)) * rng.standard_normal(DIMENSIONS).astype(np.float32)
        value = HalfVector(query) if storage == "halfvec" else Vector(query)
        with conn.transaction():
            conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            conn.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            conn.execute(QUERY, (int(owners[index]), int(owners[index]), MODEL, value)).fetchall()


def measure(conn, vectors, owners, owner_kind: str, query_kind: str, queries: int, ef_search: int, storage: str):
    from pgvector import HalfVector, Vector

    rng = np.random.default_rng(len(vectors) + 1)  # the same queries for every ef_search and layout
    if owner_kind == "big":
        picks = [1] * queries
    else:
        picks = rng.integers(2, 2 + SMALL_OWNERS, queries).tolist()
    # The queries and their exact answers first, all of them: the brute force over the big owner's
    # vectors is a 1 GB product at 1M rows, and run between timed queries it evicts the caches the
    # next query needs (that is not what a server does between recalls).
    rows_of: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # owner -> (row indexes, their vectors)
    asked = []  # (owner, query, exact nearest row indexes)
    for owner in picks:
        if owner not in rows_of:
            rows_of[owner] = (np.flatnonzero(owners == owner), vectors[owners == owner])
        mine, theirs = rows_of[owner]
        if query_kind == "near":  # a question close to something the owner has (noise of norm 0.3)
            noise = (0.3 / np.sqrt(DIMENSIONS)) * rng.standard_normal(DIMENSIONS).astype(np.float32)
            query = vectors[rng.choice(mine)] + noise
        else:  # "far": a random direction, near nothing stored (the hard case for HNSW)
            query = rng.standard_normal(DIMENSIONS).astype(np.float32)
        query /= np.linalg.norm(query)
        asked.append((owner, query, mine[np.argsort(-(theirs @ query))[:10]]))
    rows_of.clear()
    # Then the timed queries, back to back, as a server answers them.
    answers, latencies, plans = [], [], set()
    for owner, query, _ in asked:
        value = HalfVector(query) if storage == "halfvec" else Vector(query)
        with conn.transaction():
            conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            conn.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            started = time.perf_counter()
            answers.append([row[0] for row in conn.execute(QUERY, (owner, owner, MODEL, value)).fetchall()])
            latencies.append((time.perf_counter() - started) * 1000)
    for owner, query, _ in asked[:2]:  # which path the planner takes (outside the timing)
        value = HalfVector(query) if storage == "halfvec" else Vector(query)
        with conn.transaction():
            conn.execute("SET LOCAL hnsw.iterative_scan = strict_order")
            conn.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
            plan = " ".join(r[0] for r in conn.execute("EXPLAIN " + QUERY, (owner, owner, MODEL, value)).fetchall())
        plans.add("hnsw" if "bench_insight_hnsw" in plan else "b-tree + sort" if "scope" in plan else "seq scan")
    recalls, gaps = [], []
    for (_, query, nearest), found in zip(asked, answers, strict=True):
        exact = set((nearest + 1).tolist())  # ids are 1..rows
        recalls.append(len(exact & set(found)) / len(exact))  # an owner with fewer than 10 rows: all of them
        # How much less similar the 10 found are than the exact 10, on average (0: the same).
        gaps.append(float(np.mean(vectors[nearest] @ query) - np.mean(vectors[np.array(found) - 1] @ query)))
    latencies.sort()
    return {
        "owner rows": int(np.mean([np.count_nonzero(owners == o) for o in set(picks)])),
        "p50": statistics.median(latencies),
        "p95": latencies[int(0.95 * (len(latencies) - 1))],
        "recall": statistics.mean(recalls),
        "gap": statistics.mean(gaps),
        "lost": sum(r < 0.5 for r in recalls) / len(recalls),  # the search stayed out of the right region
        "plan": "/".join(sorted(plans)),
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--ef-search", default=str(EF_SEARCH), help="comma-separated: each is measured")
    parser.add_argument("--storage", choices=sorted(STORAGE), default="halfvec")
    parser.add_argument("--keep", action="store_true", help="leave the last size's table for --reuse")
    parser.add_argument("--reuse", action="store_true", help="measure a kept table of that size again")
    parser.add_argument("--m", type=int, default=16, help="HNSW m (memory/models.py: 16)")
    parser.add_argument("--ef-construction", type=int, default=128, help="HNSW ef_construction (memory/models.py: 128)")
    parser.add_argument("--small-only", action="store_true", help="small owners only: no HNSW index built")
    parser.add_argument("--warm-up", type=int, default=0, help="queries run before measuring (warm cache)")
    args = parser.parse_args()
    import psycopg
    from pgvector.psycopg import register_vector

    # No server-side prepared statements (Django does not use them either): a generic plan would
    # choose the b-tree and sort half the table, hiding what the planner does for each query.
    conn = psycopg.connect(database_url(), prepare_threshold=None)
    settings = dict(
        conn.execute(
            "SELECT name, current_setting(name) FROM pg_settings WHERE name IN "
            "('shared_buffers', 'effective_cache_size', 'server_version')"
        ).fetchall()
    )
    conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    conn.commit()
    version = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    print(f"PostgreSQL {settings['server_version']}, pgvector {version[0] if version else '?'}, "
          f"shared_buffers {settings['shared_buffers']}, effective_cache_size {settings['effective_cache_size']}, "
          f"storage {args.storage}, warm-up queries {args.warm_up}", flush=True)  # fmt: skip
    print(f"{'rows':>9} | {'load s':>7} | {'index s':>8} | {'owner':>5} | {'query':>5} | {'owner rows':>10} | "
          f"{'ef':>4} | {'p50 ms':>7} | {'p95 ms':>7} | {'recall@10':>9} | {'sim gap':>7} | {'< 0.5':>5} | {'load avg':>8} | plan")  # fmt: skip
    for size in (int(n) for n in args.sizes.split(",")):
        vectors, owners = synthetic(size)
        if args.reuse and kept(conn, size, args.storage):
            loaded = built = float("nan")
        else:
            loaded, built = load(conn, vectors, owners, args.storage, not args.small_only, args.m, args.ef_construction)
        register_vector(conn)
        if args.warm_up:
            warm_up(conn, vectors, owners, args.warm_up, max(int(n) for n in args.ef_search.split(",")), args.storage)
        for ef_search in (int(n) for n in args.ef_search.split(",")):
            for kind, query_kind in (("big", "near"), ("small", "near"), ("big", "far")):
                if args.small_only and kind == "big":
                    continue
                row = measure(conn, vectors, owners, kind, query_kind, args.queries, ef_search, args.storage)
                print(
                    f"{size:>9,} | {loaded:>7.1f} | {built:>8.1f} | {kind:>5} | {query_kind:>5} | "
                    f"{row['owner rows']:>10,} | {ef_search:>4} | {row['p50']:>7.2f} | {row['p95']:>7.2f} | "
                    f"{row['recall']:>9.3f} | {row['gap']:>7.4f} | {row['lost']:>5.1%} | {row['load']:>8.2f} | {row['plan']}",
                    flush=True,
                )
    if not args.keep:
        conn.execute("DROP TABLE IF EXISTS bench_insight")
        conn.commit()


if __name__ == "__main__":
    main()
