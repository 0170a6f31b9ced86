"""Reading a persona's stored corpus (for its pages, and to build a draft from it again)."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from personas.corpus.chunking import Span
from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.corpus.store import PreparedCorpus, PreparedDocument


def corpus_document_list(*, persona) -> QuerySet[CorpusDocument]:
    """The persona's documents in upload order, each annotated with ``chunk_count`` and
    ``embedded_count`` (chunks with a vector)."""
    return (
        CorpusDocument.objects.filter(persona=persona)
        .annotate(
            chunk_count=Count("chunks"), embedded_count=Count("chunks", filter=Q(chunks__embedding__isnull=False))
        )
        .order_by("position", "id")
        .defer("text")
    )


def corpus_of(*, persona) -> PreparedCorpus:
    """The persona's stored corpus as a PreparedCorpus (vectors included), e.g. for
    ``draft_persona`` to draft the persona again from what it already has."""
    documents, models = [], set()
    chunks_by_document: dict[int, list[CorpusChunk]] = {}
    for chunk in CorpusChunk.objects.filter(persona=persona).order_by("document_id", "ordinal"):
        chunks_by_document.setdefault(chunk.document_id, []).append(chunk)
        if chunk.embedding is not None:
            models.add(chunk.embedding_model)
    for document in CorpusDocument.objects.filter(persona=persona).order_by("position", "id"):
        chunks = chunks_by_document.get(document.id, [])
        documents.append(
            PreparedDocument(
                source=document.source,
                kind=document.kind,
                sha256=document.sha256,
                text=document.text,
                spans=[Span(chunk.start, chunk.end) for chunk in chunks],
                vectors=[list(chunk.embedding) if chunk.embedding is not None else None for chunk in chunks],
            )
        )
    if len(models) > 1:  # vectors of two models are never compared: embed again with the current one
        for document in documents:
            document.vectors = [None] * len(document.spans)
        models = set()
    return PreparedCorpus(documents=documents, embedding_model=next(iter(models), ""))
