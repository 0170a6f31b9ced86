"""Storing what a finished debate leaves in memory: embed the texts, save the rows, replacing the
debate's earlier ones (a resumed run may get here twice). Insights and persona memories both go
through here."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import transaction

from debates.models import Debate
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from memory.models import EmbeddedMemory

logger = logging.getLogger(__name__)

Memory = TypeVar("Memory", bound=EmbeddedMemory)


def debate_memories_replace(
    model: type[Memory],
    *,
    debate: Debate,
    drafts: Sequence[Any],
    fields: Callable[[Any], dict[str, Any]],
    phase: str,
    merge: Callable[[Any, list[float] | None], bool] | None = None,
) -> list[Memory]:
    """Embed every draft's ``text`` (one call, tagged with the debate and ``phase``) and store one
    ``model`` row per draft, built from ``fields(draft)``, in place of the debate's earlier rows.
    An embedding failure stores them without vectors (insights are still found by full-text
    search) and is logged, never raised: a debate's memory never fails the debate.
    ``merge(draft, vector)``, if given, is asked first (after the earlier rows are gone): True
    means the draft repeats a row kept already and was merged into it, so it is not stored again."""
    vectors, embedding_model = [None] * len(drafts), ""
    if drafts:
        try:
            batch = embeddings.embed(
                [d.text for d in drafts], purpose=Purpose.DOCUMENT, tag=CallTag(debate_id=debate.id, phase=phase)
            )
            vectors, embedding_model = batch.vectors, batch.model
        except EmbeddingError as exc:
            logger.warning("%s rows of debate %s saved without embeddings: %s", model.__name__, debate.id, exc)
    with transaction.atomic():
        model.objects.filter(debate=debate).delete()
        return model.objects.bulk_create(
            model(
                **fields(draft),
                debate=debate,
                text=draft.text,
                embedding=vector,
                embedding_model=embedding_model if vector is not None else "",
            )
            for draft, vector in zip(drafts, vectors, strict=True)
            if merge is None or not merge(draft, vector)
        )
