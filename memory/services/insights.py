"""Saving what a finished debate learned, and recalling it before the next one."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from pgvector import HalfVector
from pgvector.django import CosineDistance

from crux.models import CruxCard
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection
from debates.models import Debate, Event
from debates.payloads import EventKind
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from memory.extraction import insights_extract
from memory.models import ESTABLISHED_MIN_CONFIDENCE, Insight, MemoryRecall
from memory.relevance import Floors, RecallCandidate, RecallPick, floors_for, recall_pick, same_point
from memory.services.storing import debate_memories_replace

logger = logging.getLogger(__name__)

# HNSW candidates per scan step (pgvector's default is 40). At 1M rows, with the ef_construction 128
# graph of memory/models.py: recall@10 0.980 at 200 (p50 3.9 ms, p95 19.4 ms warm) and 0.991 at 400
# for a slower median and a longer tail (benchmarks/README.md, long-term memory).
EF_SEARCH = 200
TOP = 10
TEXT_FALLBACK_NOTE = (
    "Embedding failed ({error}); past insights were found by full-text search instead, and no fact "
    "was given as settled."
)


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
            "positions": {
                int(key): position.get("position")
                for key, position in card.positions.items()
                if str(key).isdigit() and isinstance(position, dict)
            },
        }
        for card in CruxCard.objects.filter(debate=debate).order_by("created_at")
    ]
    scored = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("-seq").first()
    states = list(PositionState.objects.filter(debate=debate, persona_id__in=participants))
    drafts = insights_extract(
        ledger_points=scored.payload.get("points", []) if scored else [],
        participants=participants,
        agreements={state.persona_id: state.agreements for state in states},
        disagreements={state.persona_id: state.disagreements for state in states},
        decisions=notes.decisions if notes else [],
        reflections=list(Reflection.objects.filter(debate=debate).values_list("content", "importance")),
        cards=cards,
    )
    return debate_memories_replace(
        Insight,
        debate=debate,
        drafts=drafts,
        phase="memory",
        fields=lambda draft: {
            "owner_id": debate.owner_id,
            "project_id": debate.context_project_id,
            "assignment_id": debate.context_assignment_id,
            "repository_id": debate.context_repository_id,
            "kind": draft.kind,
            "confidence": draft.confidence,
            "agreed_by_all": draft.agreed_by_all,
            "review": Insight.Review.CANDIDATE if _candidate_fact(draft) else Insight.Review.NOT_A_FACT,
        },
        merge=lambda draft, vector: _merge_into_earlier(debate, draft, vector),
    )


def _candidate_fact(draft) -> bool:
    """Agreed by every participant at the established confidence: the owner's to confirm."""
    return draft.agreed_by_all and draft.confidence >= ESTABLISHED_MIN_CONFIDENCE


DUPLICATE_NEIGHBOURS = 5


def _merge_into_earlier(debate: Debate, draft, vector) -> bool:
    """Whether ``draft`` repeats an insight the owner already keeps in the same scope (same
    project, or none; within it the same repository or assignment or the project's own, and for a
    debate on the whole project the project's own; another debate's): then no second row is stored. A repeat agreed by all makes an earlier ordinary
    insight a candidate fact; a confirmed or rejected one stays as the owner left it. Near-identical
    wording only (memory.relevance.same_point), looked for among the nearest vectors, or by exact
    text when there is no vector. Never into another repository's or assignment's insight: a debate
    on this one would not recall it."""
    scope = Insight.objects.filter(owner_id=debate.owner_id, project_id=debate.context_project_id)
    if debate.context_repository_id is None and debate.context_assignment_id is None:
        scope = scope.filter(repository__isnull=True, assignment__isnull=True)  # the project's own
    else:
        scope = _narrowed(scope, repository=debate.context_repository_id, assignment=debate.context_assignment_id)
    scope = scope.exclude(debate=debate)
    if vector is not None:
        near = nearest_rows(
            scope.filter(embedding_model=embeddings.current_model(), embedding__isnull=False)
            .annotate(distance=distance_to(vector))
            .order_by("distance")[:DUPLICATE_NEIGHBOURS]
        )
    else:
        near = list(scope.filter(text__iexact=draft.text)[:DUPLICATE_NEIGHBOURS])
    earlier = next((row for row in near if same_point(row.text, draft.text)), None)
    if earlier is None:
        return False
    if _candidate_fact(draft) and earlier.review == Insight.Review.NOT_A_FACT:
        earlier.agreed_by_all = True
        earlier.confidence = max(earlier.confidence, draft.confidence)
        earlier.review = Insight.Review.CANDIDATE
        earlier.save(update_fields=["agreed_by_all", "confidence", "review"])
    return True


# ── recalling ───────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Recalled:
    insight: Insight
    similarity: float | None  # cosine similarity; the text-search rank when found by text
    floor: float | None = None  # the similarity floor it cleared (None when found by text)
    scope: str = MemoryRecall.Scope.PROJECT  # the repository's or assignment's own, or the project's


@dataclass(frozen=True)
class RecallResult:
    method: str  # MemoryRecall.Method
    insights: list[Recalled]
    established: list[Recalled]
    note: str = ""
    model: str = ""  # the embedding model whose vectors were compared
    floors: Floors | None = None  # the floors that model's vectors had to clear


def _narrowed(queryset: QuerySet[Insight], *, repository=None, assignment=None) -> QuerySet[Insight]:
    """Within a project: a repository's (or an assignment's) insights and the project's own (those
    of debates on the whole project), never another repository's or assignment's."""
    project_own = Q(repository__isnull=True, assignment__isnull=True)
    if repository is not None:
        return queryset.filter(Q(repository=repository) | project_own)
    if assignment is not None:
        return queryset.filter(Q(assignment=assignment) | project_own)
    return queryset


def insights_in_scope(*, owner, project=None, repository=None, assignment=None) -> QuerySet[Insight]:
    """The owner's recallable insights (a rejected fact never is); with a project, only that
    project's, and with a repository or an assignment of it, only its own and the project's own
    (``_narrowed``). Never anyone else's."""
    scope = Insight.objects.filter(owner=owner).exclude(review=Insight.Review.REJECTED)
    if project is None:
        return scope
    return _narrowed(scope.filter(project=project), repository=repository, assignment=assignment)


def _tiers(scope: QuerySet[Insight], *, repository=None, assignment=None) -> list[tuple[str, QuerySet[Insight]]]:
    """The scope in the order recall prefers it: the repository's (or assignment's) own insights,
    then the rest of the scope."""
    if repository is not None:
        return [
            (MemoryRecall.Scope.REPOSITORY, scope.filter(repository=repository)),
            (MemoryRecall.Scope.PROJECT, scope.exclude(repository=repository)),
        ]
    if assignment is not None:
        return [
            (MemoryRecall.Scope.ASSIGNMENT, scope.filter(assignment=assignment)),
            (MemoryRecall.Scope.PROJECT, scope.exclude(assignment=assignment)),
        ]
    return [(MemoryRecall.Scope.PROJECT, scope)]


def recall_floors(model: str | None = None) -> Floors:
    """The similarity floors for vectors of ``model`` (the current embedding model by default)."""
    return floors_for(model or embeddings.current_model(), settings.FAULTLINE_MEMORY_FLOORS)


def query_embed(query: str, *, debate_id=None) -> tuple[list[float] | None, str]:
    """(the query's vector, "") or (None, why not): callers fall back to text search."""
    try:
        batch = embeddings.embed([query], purpose=Purpose.QUERY, tag=CallTag(debate_id=debate_id, phase="recall"))
    except EmbeddingError as exc:
        logger.warning("Recall for %r falls back to full-text search: %s", query[:80], exc)
        return None, TEXT_FALLBACK_NOTE.format(error=str(exc)[:200])
    return batch.vectors[0], ""


def insights_search(
    *, owner, project, query: str, debate_id=None, query_vector=None, repository=None, assignment=None
) -> RecallResult:
    """Past insights relevant to ``query``, over vectors of the current model: at or above that
    model's insight floor, and confirmed facts given as settled only at or above its stricter fact
    floor (memory/relevance.py); each once, top 10, facts first, then the most similar. For a
    debate on a repository (or an assignment) of the project, that one's own insights come before
    the project's: a project's insight is kept only where it adds a point of its own. Full-text
    search if the query cannot be embedded (said in ``note``)."""
    scope = insights_in_scope(owner=owner, project=project, repository=repository, assignment=assignment)
    if not scope.exists():
        return RecallResult(MemoryRecall.Method.NONE, [], [])
    if query_vector is None:
        query_vector, note = query_embed(query, debate_id=debate_id)
        if query_vector is None:
            return _text_search(scope, query, note=note, repository=repository, assignment=assignment)
    model = embeddings.current_model()
    floors = recall_floors(model)
    recalled: list[tuple[Recalled, bool]] = []
    for tier_scope, tier in _tiers(scope, repository=repository, assignment=assignment):
        vectors = tier.filter(embedding_model=model, embedding__isnull=False).annotate(
            distance=distance_to(query_vector)
        )
        # The nearest, then the floors: a distance condition in the query would keep the HNSW scan
        # going through the whole index when few rows pass it. Facts are looked up on their own so
        # that many closer insights cannot crowd one out.
        rows = {row.id: row for row in nearest_rows(vectors.order_by("distance")[: TOP * 3])}
        for row in nearest_rows(vectors.filter(review=Insight.Review.CONFIRMED).order_by("distance")[:TOP]):
            rows.setdefault(row.id, row)
        picks = recall_pick(
            [RecallCandidate(row.id, row.text, 1 - row.distance, row.established) for row in rows.values()],
            floors,
            top=TOP,
        )
        for pick in picks:
            item = (
                Recalled(rows[pick.candidate.id], pick.candidate.similarity, pick.floor, tier_scope),
                pick.established,
            )
            twin = next(
                (i for i, (r, _) in enumerate(recalled) if same_point(r.insight.text, pick.candidate.text)), None
            )
            if twin is None and len(recalled) < TOP:
                recalled.append(item)
            elif twin is not None and pick.established and not recalled[twin][1]:
                recalled[twin] = item  # the same point, settled in the wider scope: keep it as the fact
    return RecallResult(
        MemoryRecall.Method.VECTOR,
        insights=[r for r, established in recalled if not established],
        established=[r for r, established in recalled if established],
        model=model,
        floors=floors,
    )


def topic_recall_preview(*, topic: str, texts: Sequence[str], facts: Sequence[bool] = ()) -> list[RecallPick]:
    """Which of ``texts`` (past insights; ``facts[i]`` True for a confirmed fact) a debate on
    ``topic`` would recall, with the current embedder and its floors: the same rule recall applies
    to stored insights (memory.relevance.recall_pick), without a database row to read or write
    (the embedding calls are recorded as usual). A pick's candidate.id is the text's index.
    Raises EmbeddingError."""
    if not texts:
        return []
    facts = list(facts) or [False] * len(texts)
    query = embeddings.embed([topic], purpose=Purpose.QUERY, tag=CallTag(phase="recall"))
    documents = embeddings.embed(list(texts), purpose=Purpose.DOCUMENT, tag=CallTag(phase="recall"))
    (topic_vector,) = query.vectors
    candidates = [
        RecallCandidate(index, text, sum(a * b for a, b in zip(topic_vector, vector, strict=True)), bool(fact))
        for index, (text, vector, fact) in enumerate(zip(texts, documents.vectors, facts, strict=True))
    ]
    return recall_pick(candidates, recall_floors(documents.model), top=len(candidates))


def insights_text_search(*, owner, project, query: str, note: str, repository=None, assignment=None) -> RecallResult:
    scope = insights_in_scope(owner=owner, project=project, repository=repository, assignment=assignment)
    return _text_search(scope, query, note=note, repository=repository, assignment=assignment)


def distance_to(query_vector: list[float]) -> CosineDistance:
    """Cosine distance from the stored (half-precision) embedding to the query's, compared as
    halfvec so the HNSW index on the column answers."""
    return CosineDistance("embedding", HalfVector(query_vector))


def nearest_rows(queryset) -> list:
    """Run a nearest-neighbour query so the owner's filter cannot starve the HNSW index: with an
    iterative scan (pgvector 0.8) the index is read on until enough rows pass the filter, in exact
    distance order. The planner still picks the b-tree on (owner, project, model) when the owner
    has few rows, which is exact."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.iterative_scan = strict_order")
        cursor.execute(f"SET LOCAL hnsw.ef_search = {EF_SEARCH}")
        return list(queryset)


def _text_search(scope: QuerySet[Insight], query: str, *, note: str, repository=None, assignment=None) -> RecallResult:
    """Insights sharing a word with ``query``, by text rank. No fact is given as settled: without a
    similarity nothing shows it is about this question (relevant or silent)."""
    vector = SearchVector("text", config="english")
    search = SearchQuery(query, config="english", search_type="websearch")
    words = [w for w in query.split() if len(w) > 2]
    # websearch ANDs the words; recall wants any of them, so OR them as plain queries.
    any_word = None
    for word in words:
        part = SearchQuery(word, config="english", search_type="plain")
        any_word = part if any_word is None else any_word | part
    found: list[Recalled] = []
    for tier_scope, tier in _tiers(scope, repository=repository, assignment=assignment):
        matches = tier.annotate(rank=SearchRank(vector, any_word or search)).filter(rank__gt=0).order_by("-rank")
        for insight in matches[: TOP * 3]:
            if not any(same_point(insight.text, kept.insight.text) for kept in found):
                found.append(Recalled(insight, insight.rank, scope=tier_scope))
    return RecallResult(MemoryRecall.Method.TEXT, found[:TOP], [], note=note)
