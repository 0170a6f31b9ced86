import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from pgvector.django import CosineDistance

from gateways.embeddings.types import DIMENSIONS
from memory.models import Insight

pytestmark = pytest.mark.django_db


def one_hot(index: int, weight: float = 1.0) -> list[float]:
    vector = [0.0] * DIMENSIONS
    vector[index] = weight
    vector[(index + 1) % DIMENSIONS] = 0.1  # no zero-norm vectors: cosine needs a direction
    return vector


def test_the_memory_embedding_has_an_hnsw_cosine_index():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'insight_embedding_hnsw'")
        (definition,) = cursor.fetchone()
    assert "USING hnsw" in definition and "halfvec_cosine_ops" in definition


def test_a_nearest_neighbour_query_round_trips():
    owner = get_user_model().objects.create_user("alice")
    for index in range(50):
        Insight.objects.create(
            owner=owner, kind=Insight.Kind.FINDING, confidence=0.8, text=f"memory {index}", embedding=one_hot(index)
        )

    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # make the planner show it can use the index
        # 50 nearly orthogonal vectors are the worst case for HNSW's greedy search: with fewer
        # candidates than rows it sometimes misses the nearest (seen once in eight runs).
        cursor.execute("SET hnsw.ef_search = 100")
    nearest = list(
        Insight.objects.annotate(distance=CosineDistance("embedding", one_hot(17, 0.9)))
        .order_by("distance")
        .values_list("text", flat=True)[:3]
    )

    assert nearest[0] == "memory 17"
    stored = Insight.objects.get(text="memory 17").embedding
    assert list(stored) == pytest.approx(one_hot(17), abs=1e-3)  # half precision
    with connection.cursor() as cursor:
        query, params = (
            Insight.objects.annotate(distance=CosineDistance("embedding", one_hot(17)))
            .order_by("distance")
            .values("id")[:3]
            .query.sql_with_params()
        )
        cursor.execute("EXPLAIN " + query, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "insight_embedding_hnsw" in plan
