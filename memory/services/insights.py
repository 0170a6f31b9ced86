"""Saving what a finished debate learned, and recalling it before the next one."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from pgvector.django import CosineDistance

from crux.models import CruxCard
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection
from debates.models import Debate
from faultline.embeddings import gateway as embeddings
from faultline.embeddings.types import EmbeddingError, Purpose
from faultline.llm.types import CallTag
from memory.extraction import insights_extract
from memory.models import ESTABLISHED_MIN_CONFIDENCE, Insight, MemoryRecall, RecalledInsight

logger = logging.getLogger(__name__)

MIN_SIMILARITY = 0.7  # Proflow's threshold
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
    drafts = insights_extract(
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


def insights_search(*, owner, project, query: str, debate_id=None) -> RecallResult:
    """Past insights relevant to ``query``: cosine similarity > 0.7 over vectors of the current
    model, top 10, best first; full-text search if the query cannot be embedded (said in ``note``).
    Established facts (agreed by all, confidence >= 0.85) come with them, the most relevant first."""
    scope = insights_in_scope(owner=owner, project=project)
    if not scope.exists():
        return RecallResult(MemoryRecall.Method.NONE, [], [])
    try:
        query_vector = embeddings.embed(
            [query], purpose=Purpose.QUERY, tag=CallTag(debate_id=debate_id, phase="recall")
        ).vectors[0]
    except EmbeddingError as exc:
        logger.warning("Recall for %r falls back to full-text search: %s", query[:80], exc)
        return _text_search(scope, query, note=TEXT_FALLBACK_NOTE.format(error=str(exc)[:200]))
    vectors = scope.filter(embedding_model=embeddings.current_model(), embedding__isnull=False).annotate(
        distance=CosineDistance("embedding", query_vector)
    )
    found = [
        Recalled(insight, 1 - insight.distance)
        for insight in vectors.filter(distance__lt=1 - MIN_SIMILARITY).order_by("distance")[:TOP]
    ]
    facts = [
        Recalled(insight, 1 - insight.distance)
        for insight in vectors.filter(agreed_by_all=True, confidence__gte=ESTABLISHED_MIN_CONFIDENCE).order_by(
            "distance"
        )[:TOP]
    ]
    # Facts stored without a vector (their embedding failed) are still facts.
    facts += [Recalled(i, None) for i in _established(scope).filter(embedding__isnull=True)[: TOP - len(facts)]]
    return RecallResult(MemoryRecall.Method.VECTOR, found, facts)


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


def debate_recall(*, debate: Debate) -> MemoryRecall | None:
    """Before a debate begins: recall the owner's (and the debate's project's) insights about its
    topic, once. A resumed run gets the same recall back. Retrieval counts go up atomically."""
    existing = MemoryRecall.objects.filter(debate=debate).first()
    if existing is not None or debate.owner_id is None:
        return existing
    result = insights_search(
        owner=debate.owner, project=debate.context_project, query=debate.topic, debate_id=debate.id
    )
    with transaction.atomic():
        recall, created = MemoryRecall.objects.get_or_create(
            debate=debate, defaults={"method": result.method, "note": result.note}
        )
        if not created:
            return recall
        established_ids = {r.insight.id for r in result.established}
        items, seen = [], set()
        for rank, recalled in enumerate([*result.established, *result.insights]):
            if recalled.insight.id in seen:
                continue
            seen.add(recalled.insight.id)
            items.append(
                RecalledInsight(
                    recall=recall,
                    insight=recalled.insight,
                    similarity=recalled.similarity,
                    established=recalled.insight.id in established_ids,
                    rank=rank,
                )
            )
        RecalledInsight.objects.bulk_create(items)
        insights_mark_retrieved(ids=seen)
    return recall


def insights_mark_retrieved(*, ids) -> None:
    """One UPDATE with F(): concurrent recalls never lose a count."""
    Insight.objects.filter(id__in=list(ids)).update(
        times_retrieved=F("times_retrieved") + 1, last_retrieved_at=timezone.now()
    )


def recalled_for(*, debate: Debate) -> tuple[list[RecalledInsight], list[RecalledInsight], str]:
    """(established facts, other insights, note) the debate recalled, in rank order."""
    items = list(
        RecalledInsight.objects.filter(recall__debate=debate).select_related("insight", "recall").order_by("rank")
    )
    note = (
        items[0].recall.note
        if items
        else MemoryRecall.objects.filter(debate=debate).values_list("note", flat=True).first() or ""
    )
    return [i for i in items if i.established], [i for i in items if not i.established], note
