import pytest
from django.db import connection
from pgvector.django import CosineDistance

from debates.models import Debate, DebateMemory

pytestmark = pytest.mark.django_db

DIMENSIONS = DebateMemory.EMBEDDING_DIMENSIONS


def one_hot(index: int, weight: float = 1.0) -> list[float]:
    vector = [0.0] * DIMENSIONS
    vector[index] = weight
    vector[(index + 1) % DIMENSIONS] = 0.1  # no zero-norm vectors: cosine needs a direction
    return vector


def test_the_memory_embedding_has_an_hnsw_cosine_index():
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'memory_embedding_hnsw'")
        (definition,) = cursor.fetchone()
    assert "USING hnsw" in definition and "vector_cosine_ops" in definition


def test_a_nearest_neighbour_query_round_trips():
    debate = Debate.objects.create(topic="Is gold a hedge?")
    for index in range(50):
        DebateMemory.objects.create(
            debate=debate, kind=DebateMemory.Kind.MESSAGE, content=f"memory {index}", embedding=one_hot(index)
        )

    with connection.cursor() as cursor:
        cursor.execute("SET enable_seqscan = off")  # make the planner show it can use the index
    nearest = list(
        DebateMemory.objects.annotate(distance=CosineDistance("embedding", one_hot(17, 0.9)))
        .order_by("distance")
        .values_list("content", flat=True)[:3]
    )

    assert nearest[0] == "memory 17"
    stored = DebateMemory.objects.get(content="memory 17").embedding
    assert list(stored) == pytest.approx(one_hot(17))
    with connection.cursor() as cursor:
        query, params = (
            DebateMemory.objects.annotate(distance=CosineDistance("embedding", one_hot(17)))
            .order_by("distance")
            .values("id")[:3]
            .query.sql_with_params()
        )
        cursor.execute("EXPLAIN " + query, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "memory_embedding_hnsw" in plan
