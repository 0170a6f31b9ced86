"""Saving what a finished debate learned, and recalling it before the next one."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection, transaction
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from crux.models import CruxCard
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection
from debates.models import Debate, Event
from debates.payloads import EventKind
from faultline.embeddings import gateway as embeddings
from faultline.embeddings.types import EmbeddingError, Purpose
from faultline.llm.types import CallTag
from memory.extraction import insights_extract
from memory.models import ESTABLISHED_MIN_CONFIDENCE, Insight, MemoryRecall

logger = logging.getLogger(__name__)

MIN_SIMILARITY = 0.7  # Proflow's threshold
EF_SEARCH = 64  # HNSW candidates per scan step (pgvector's default is 40); see benchmarks/recall.py
TOP = 10
TEXT_FALLBACK_NOTE = "Embedding failed ({error}); past insights were found by full-text search instead."


# ── saving ──────────────────────────────────────────────────────────────────────────────────


def insights_remember(*, debate: Debate) -> list[Insight]:
    """Extract, embed and store a finished debate's insights (again, replacing its earlier ones,
    if a resumed run gets here twice). An embedding failure stores them without vectors: they are
    still found by full-text search. A debate without an owner has nobody to remember for."""
    if debate.owner_id is None:
        return []
    participants = set(debate.participants.values_list("persona_id", flat=True))
    notes = BlackboardNotes.objects.filter(debate=debate).first()
    cards = [
        {
            "question": card.question,
            "diagnosis": card.diagnosis,
            "resolved": card.resolved,
            "resolution": card.resolution,
            "positions": [p.get("position") for p in card.positions.values()],
        }
        for card in CruxCard.objects.filter(debate=debate).order_by("created_at")
    ]
    scored = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("-seq").first()
    drafts = insights_extract(
        ledger_points=scored.payload.get("points", []) if scored else [],
        participants=participants,
        agreements={state.persona_id: state.agreements for state in PositionState.objects.filter(debate=debate)},
        decisions=notes.decisions if notes else [],
        reflections=list(Reflection.objects.filter(debate=debate).values_list("content", "importance")),
        cards=cards,
    )
    vectors, model = [None] * len(drafts), ""
    if drafts:
        try:
            batch = embeddings.embed(
                [d.text for d in drafts], purpose=Purpose.DOCUMENT, tag=CallTag(debate_id=debate.id, phase="memory")
            )
            vectors, model = batch.vectors, batch.model
        except EmbeddingError as exc:
            logger.warning("Insights of debate %s saved without embeddings (text search only): %s", debate.id, exc)
    with transaction.atomic():
        Insight.objects.filter(debate=debate).delete()
        return Insight.objects.bulk_create(
            Insight(
                owner_id=debate.owner_id,
                project_id=debate.context_project_id,
                assignment_id=debate.context_assignment_id,
                repository_id=debate.context_repository_id,
                debate=debate,
                kind=draft.kind,
                text=draft.text,
                confidence=draft.confidence,
                agreed_by_all=draft.agreed_by_all,
                embedding=vector,
                embedding_model=model if vector is not None else "",
            )
            for draft, vector in zip(drafts, vectors, strict=True)
        )


# ── recalling ───────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Recalled:
    insight: Insight
    similarity: float | None  # cosine similarity; the text-search rank when found by text


@dataclass(frozen=True)
class RecallResult:
    method: str  # MemoryRecall.Method
    insights: list[Recalled]
    established: list[Recalled]
    note: str = ""


def insights_in_scope(*, owner, project=None) -> QuerySet[Insight]:
    """The owner's insights; with a project, only that project's. Never anyone else's."""
    scope = Insight.objects.filter(owner=owner)
    return scope.filter(project=project) if project is not None else scope


def query_embed(query: str, *, debate_id=None) -> tuple[list[float] | None, str]:
    """(the query's vector, "") or (None, why not): callers fall back to text search."""
    try:
        batch = embeddings.embed([query], purpose=Purpose.QUERY, tag=CallTag(debate_id=debate_id, phase="recall"))
    except EmbeddingError as exc:
        logger.warning("Recall for %r falls back to full-text search: %s", query[:80], exc)
        return None, TEXT_FALLBACK_NOTE.format(error=str(exc)[:200])
    return batch.vectors[0], ""


def insights_search(*, owner, project, query: str, debate_id=None, query_vector=None) -> RecallResult:
    """Past insights relevant to ``query``: cosine similarity > 0.7 over vectors of the current
    model, top 10, best first; full-text search if the query cannot be embedded (said in ``note``).
    Established facts (agreed by all, confidence >= 0.85) come with them, the most relevant first."""
    scope = insights_in_scope(owner=owner, project=project)
    if not scope.exists():
        return RecallResult(MemoryRecall.Method.NONE, [], [])
    if query_vector is None:
        query_vector, note = query_embed(query, debate_id=debate_id)
        if query_vector is None:
            return _text_search(scope, query, note=note)
    vectors = scope.filter(embedding_model=embeddings.current_model(), embedding__isnull=False).annotate(
        distance=CosineDistance("embedding", query_vector)
    )
    # The 10 nearest, then the threshold: a distance condition in the query would keep the HNSW
    # scan going through the whole index when few rows pass it.
    nearest = nearest_rows(vectors.order_by("distance")[:TOP])
    found = [Recalled(insight, 1 - insight.distance) for insight in nearest if 1 - insight.distance > MIN_SIMILARITY]
    established = vectors.filter(agreed_by_all=True, confidence__gte=ESTABLISHED_MIN_CONFIDENCE)
    facts = [
        Recalled(insight, 1 - insight.distance) for insight in nearest_rows(established.order_by("distance")[:TOP])
    ]
    # Facts without a vector of this model (their embedding failed, or another model made it) are
    # still facts: they come after, newest first.
    others = _established(scope).exclude(embedding_model=embeddings.current_model(), embedding__isnull=False)
    facts += [Recalled(i, None) for i in others[: max(0, TOP - len(facts))]]
    return RecallResult(MemoryRecall.Method.VECTOR, found, facts)


def insights_text_search(*, owner, project, query: str, note: str) -> RecallResult:
    return _text_search(insights_in_scope(owner=owner, project=project), query, note=note)


def nearest_rows(queryset) -> list:
    """Run a nearest-neighbour query so the owner's filter cannot starve the HNSW index: with an
    iterative scan (pgvector 0.8) the index is read on until enough rows pass the filter, in exact
    distance order. The planner still picks the b-tree on (owner, project, model) when the owner
    has few rows, which is exact."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = strict_order")
        cursor.execute(f"SET LOCAL hnsw.ef_search = {EF_SEARCH}")
        return list(queryset)


def _established(scope: QuerySet[Insight]) -> QuerySet[Insight]:
    return scope.filter(agreed_by_all=True, confidence__gte=ESTABLISHED_MIN_CONFIDENCE).order_by("-created_at")


def _text_search(scope: QuerySet[Insight], query: str, *, note: str) -> RecallResult:
    vector = SearchVector("text", config="english")
    search = SearchQuery(query, config="english", search_type="websearch")
    words = [w for w in query.split() if len(w) > 2]
    # websearch ANDs the words; recall wants any of them, so OR them as plain queries.
    any_word = None
    for word in words:
        part = SearchQuery(word, config="english", search_type="plain")
        any_word = part if any_word is None else any_word | part
    matches = scope.annotate(rank=SearchRank(vector, any_word or search)).filter(rank__gt=0).order_by("-rank")[:TOP]
    found = [Recalled(insight, insight.rank) for insight in matches]
    facts = [Recalled(insight, None) for insight in _established(scope)[:TOP]]
    return RecallResult(MemoryRecall.Method.TEXT, found, facts, note=note)
