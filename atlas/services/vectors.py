"""The vector of each crux card's question, made when an atlas first needs it (one embedding call
for all the cards that lack one of the current model) and kept."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.db import connection

from atlas.clustering import crux_text
from atlas.models import CruxVector
from crux.models import CruxCard
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag

logger = logging.getLogger(__name__)


def crux_vectors_ensure(*, cards: Sequence[CruxCard]) -> dict[int, CruxVector]:
    """{card id: its vector row}, embedding (as queries: cards are compared with each other, the
    symmetric case e5 wants "query:" for) the cards with no vector of the current model or whose
    question changed. A failed embedding leaves those cards without a vector (clustered by their
    words alone), logged, never raised: the atlas still shows."""
    model = embeddings.current_model()
    rows = {row.card_id: row for row in CruxVector.objects.filter(card__in=[c.id for c in cards])}
    stale = [
        card
        for card in cards
        if card.id not in rows
        or rows[card.id].embedding_model != model
        or rows[card.id].text != crux_text(card.question)
    ]
    if not stale:
        return rows
    texts = [crux_text(card.question) for card in stale]
    try:
        batch = embeddings.embed(texts, purpose=Purpose.QUERY, tag=CallTag(phase="atlas"))
        vectors, made_by = batch.vectors, batch.model
    except EmbeddingError as exc:
        logger.warning("Crux atlas: %s cards left without vectors: %s", len(stale), exc)
        vectors, made_by = [None] * len(stale), ""
    for card, text, vector in zip(stale, texts, vectors, strict=True):
        # A card without a vector of its own model is tried again next time (made_by stays "").
        rows[card.id], _ = CruxVector.objects.update_or_create(
            card=card, defaults={"text": text, "embedding": vector, "embedding_model": made_by}
        )
    return rows


def crux_similarities(*, card_ids: Sequence[int], model: str) -> dict[tuple[int, int], float]:
    """{(lower card id, higher card id): cosine similarity} of every two of the cards with a vector
    of ``model``, computed by the database (pgvector) rather than in Python, which at a few hundred
    cards would take seconds."""
    if len(card_ids) < 2:
        return {}
    table = CruxVector._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT a.card_id, b.card_id, 1 - (a.embedding <=> b.embedding)
            FROM {table} a JOIN {table} b ON a.card_id < b.card_id
            WHERE a.card_id = ANY(%s) AND b.card_id = ANY(%s)
              AND a.embedding_model = %s AND b.embedding_model = %s
              AND a.embedding IS NOT NULL AND b.embedding IS NOT NULL
            """,
            [list(card_ids), list(card_ids), model, model],
        )
        return {(a, b): float(similarity) for a, b, similarity in cursor.fetchall()}
