"""Finding the corpus passages relevant to a debate turn.

``corpus_passages_relevant`` never raises: a turn goes on without its corpus rather than fail.
It searches by cosine similarity over the persona's chunks embedded with the current model, and
by full-text search when the query cannot be embedded or no chunk has a vector of this model.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection, transaction
from pgvector.django import CosineDistance

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from personas.corpus.citations import citation_tag
from personas.corpus.models import CorpusChunk

logger = logging.getLogger(__name__)

CHARS_PER_TOKEN = 4
MIN_SIMILARITY = 0.3  # below this a chunk is not about the exchange at all
EF_SEARCH = 64


@dataclass(frozen=True)
class CorpusPassage:
    """One chunk given to one turn, under the tag the turn may cite it by."""

    tag: str  # "C1"
    chunk_id: int
    source: str  # the document's source name
    text: str  # the chunk's text (possibly clipped to the token budget; still verbatim)
    similarity: float | None  # cosine; the text-search rank when found by words


@dataclass(frozen=True)
class CorpusRetrieval:
    passages: list[CorpusPassage]
    method: str  # "vector" | "text" | "none"
    note: str = ""


def persona_has_corpus(persona) -> bool:
    return CorpusChunk.objects.filter(persona=persona).exists()


def corpus_passages_relevant(
    *, persona, query: str, top_k: int | None = None, token_budget: int | None = None, tag: CallTag = CallTag()
) -> CorpusRetrieval:
    """Up to ``top_k`` of ``persona``'s chunks most relevant to ``query``, best first, clipped
    so their text fits ``token_budget`` (settings FAULTLINE_CORPUS_TOP_K / _TOKENS by default).
    A persona without a corpus costs one EXISTS query and no embedding call."""
    top_k = settings.FAULTLINE_CORPUS_TOP_K if top_k is None else top_k
    token_budget = settings.FAULTLINE_CORPUS_TOKENS if token_budget is None else token_budget
    try:
        if top_k <= 0 or not query.strip() or not persona_has_corpus(persona):
            return CorpusRetrieval([], "none")
        chunks, method, note = _search(persona, query, top_k, tag)
        return CorpusRetrieval(_within_budget(chunks, token_budget), method, note)
    except Exception as exc:  # retrieval is a help, never a reason for a turn to fail
        logger.warning("Corpus retrieval for %s failed; the turn goes on without it: %s", persona, exc)
        return CorpusRetrieval([], "none", note=f"Corpus retrieval failed ({type(exc).__name__}).")


def _search(persona, query: str, top_k: int, tag: CallTag) -> tuple[list[tuple[CorpusChunk, float]], str, str]:
    scope = CorpusChunk.objects.filter(persona=persona).select_related("document")
    model = embeddings.current_model()
    note = ""
    if scope.filter(embedding_model=model, embedding__isnull=False).exists():
        try:
            batch = embeddings.embed(
                [query[:2000]], purpose=Purpose.QUERY, tag=CallTag(tag.debate_id, tag.persona, tag.phase or "corpus")
            )
        except EmbeddingError as exc:
            note = f"Embedding failed ({str(exc)[:200]}); the corpus was searched by its words."
        else:
            nearest = (
                scope.filter(embedding_model=model, embedding__isnull=False)
                .annotate(distance=CosineDistance("embedding", batch.vectors[0]))
                .order_by("distance")[:top_k]
            )
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL hnsw.iterative_scan = strict_order")
                cursor.execute(f"SET LOCAL hnsw.ef_search = {EF_SEARCH}")
                rows = list(nearest)
            found = [(chunk, 1 - chunk.distance) for chunk in rows if 1 - chunk.distance >= MIN_SIMILARITY]
            return found, "vector", ""
    return _text_search(scope, query, top_k), "text", note


def _text_search(scope, query: str, top_k: int) -> list[tuple[CorpusChunk, float]]:
    any_word = None
    for word in {w.strip(".,;:!?\"'()[]") for w in query.split()}:
        if len(word) > 3:
            part = SearchQuery(word, config="english", search_type="plain")
            any_word = part if any_word is None else any_word | part
    if any_word is None:
        return []
    ranked = (
        scope.annotate(rank=SearchRank(SearchVector("text", config="english"), any_word))
        .filter(rank__gt=0)
        .order_by("-rank", "id")[:top_k]
    )
    return [(chunk, chunk.rank) for chunk in ranked]


def _within_budget(chunks: list[tuple[CorpusChunk, float]], token_budget: int) -> list[CorpusPassage]:
    """Best first until the budget is spent; a chunk that does not fit whole is cut at a sentence
    or word boundary (a prefix of the chunk, so still a verbatim quote) if 40 chars or more fit."""
    passages, left = [], token_budget * CHARS_PER_TOKEN
    for chunk, score in chunks:
        overhead = len(chunk.document.source) + 12
        room = left - overhead
        text = chunk.text if len(chunk.text) <= room else _prefix(chunk.text, room)
        if len(text) < 40:
            break
        passages.append(CorpusPassage(citation_tag(len(passages)), chunk.id, chunk.document.source, text, score))
        left -= overhead + len(text)
    return passages


def _prefix(text: str, room: int) -> str:
    if room <= 0:
        return ""
    cut = text[:room]
    for end in (". ", "! ", "? "):
        at = cut.rfind(end)
        if at >= 40:
            return cut[: at + 1]
    return cut.rsplit(" ", 1)[0] if " " in cut else cut
