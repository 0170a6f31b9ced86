"""The owner's review of candidate facts: a point every participant held is only a candidate until
its owner confirms it (perhaps in their own words) or rejects it. Only a confirmed fact is given to
later debates as settled; a rejected one is never recalled again."""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from memory.extraction import MAX_TEXT
from memory.models import Insight

logger = logging.getLogger(__name__)


def fact_confirm(*, insight: Insight) -> Insight:
    insight.review = Insight.Review.CONFIRMED
    insight.save(update_fields=["review"])
    return insight


def fact_reject(*, insight: Insight) -> Insight:
    insight.review = Insight.Review.REJECTED
    insight.save(update_fields=["review"])
    return insight


def fact_edit(*, insight: Insight, text: str) -> Insight:
    """The fact in the owner's words, confirmed. The new text is embedded again (recall compares
    the vector, not the words); if that fails it is kept without a vector, found by text search
    until `manage.py reembed` gives it one. Raises ValidationError for an empty or too long text."""
    text = " ".join((text or "").split())
    if not text:
        raise ValidationError("Type the fact, or reject it instead.")
    if len(text) > MAX_TEXT:
        raise ValidationError(f"Keep the fact to {MAX_TEXT} characters or fewer (it has {len(text)}).")
    vector, model = None, ""
    try:
        batch = embeddings.embed([text], purpose=Purpose.DOCUMENT, tag=CallTag(phase="memory"))
        vector, model = batch.vectors[0], batch.model
    except EmbeddingError as exc:
        logger.warning("Edited fact %s saved without an embedding: %s", insight.pk, exc)
    insight.text, insight.embedding, insight.embedding_model = text, vector, model
    insight.review = Insight.Review.CONFIRMED
    insight.save(update_fields=["text", "embedding", "embedding_model", "review"])
    return insight
