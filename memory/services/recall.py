"""Before a debate begins: recall, once, what its owner's earlier debates left: insights and
established facts (memory/services/insights.py) and each persona's own memories
(memory/services/persona_memory.py). A resumed run reads the same recall back, so every call of a
debate sees the same memory; retrieval counts go up in single UPDATEs with F()."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from debates import payloads as p
from debates.models import Debate
from debates.services.events import event_append
from gateways.embeddings import gateway as embeddings
from memory.models import (
    Insight,
    MemoryRecall,
    PersonaMemory,
    RecalledInsight,
    RecalledPersonaMemory,
)
from memory.services.insights import (
    RecallResult,
    insights_in_scope,
    insights_search,
    insights_text_search,
    query_embed,
    recall_floors,
)
from memory.services.persona_memory import persona_memories_top

NO_CONTEXT_NOTE = (
    "This debate has no context, so none of your earlier insights were recalled (choose “recall "
    "from all my debates” when you set one up to have them)."
)


def recall_scope(debate: Debate) -> str:
    """Whose insights a debate may recall: its repository's or assignment's first, then its
    project's own; or its project's; with no project, none, unless its owner opted in at setup
    (then all of the owner's)."""
    if debate.context_repository_id is not None:
        return MemoryRecall.Scope.REPOSITORY
    if debate.context_assignment_id is not None:
        return MemoryRecall.Scope.ASSIGNMENT
    if debate.context_project_id is not None:
        return MemoryRecall.Scope.PROJECT
    return MemoryRecall.Scope.ALL if debate.recall_all_insights else MemoryRecall.Scope.NONE


def debate_recall(*, debate: Debate) -> MemoryRecall | None:
    existing = MemoryRecall.objects.filter(debate=debate).first()
    if existing is not None or debate.owner_id is None:
        return existing
    owner, project, scope = debate.owner, debate.context_project, recall_scope(debate)
    within = {"repository": debate.context_repository_id, "assignment": debate.context_assignment_id}
    personas = [p.persona for p in debate.participants.select_related("persona").order_by("seat")]
    has_insights = (
        scope != MemoryRecall.Scope.NONE and insights_in_scope(owner=owner, project=project, **within).exists()
    )
    has_memories = PersonaMemory.objects.filter(owner=owner, persona__in=personas).exists()
    query_vector, note = None, ""
    if has_insights or has_memories:  # nothing to search: no embedding call
        query_vector, note = query_embed(debate.topic, debate_id=debate.id)
    if not has_insights:
        result = RecallResult(MemoryRecall.Method.NONE, [], [])
    elif query_vector is None:
        result = insights_text_search(owner=owner, project=project, query=debate.topic, note=note, **within)
    else:
        result = insights_search(owner=owner, project=project, query=debate.topic, query_vector=query_vector, **within)
    if scope == MemoryRecall.Scope.NONE and Insight.objects.filter(owner=owner).exists():
        note = " ".join(filter(None, [note, NO_CONTEXT_NOTE]))
    floors = result.floors or (recall_floors() if query_vector is not None else None)
    per_persona = {
        persona.id: persona_memories_top(
            owner=owner,
            persona=persona,
            query_vector=query_vector,
            exclude_debate=debate,
            floor=floors.insight if floors else None,
        )
        for persona in personas
    }
    with transaction.atomic():
        recall, created = MemoryRecall.objects.get_or_create(
            debate=debate,
            defaults={
                "method": result.method,
                "note": note or result.note,
                "scope": scope,
                "embedding_model": result.model or (embeddings.current_model() if floors else ""),
                "insight_floor": floors.insight if floors else None,
                "fact_floor": floors.fact if floors else None,
            },
        )
        if not created:
            return recall
        # insights_search and the text search give each insight once, facts first.
        items = [
            RecalledInsight(
                recall=recall,
                insight=recalled.insight,
                similarity=recalled.similarity,
                established=established,
                scope=recalled.scope if project is not None else MemoryRecall.Scope.ALL,
                rank=rank,
            )
            for rank, (recalled, established) in enumerate(
                [(r, True) for r in result.established] + [(r, False) for r in result.insights]
            )
        ]
        seen = {item.insight.id for item in items}
        RecalledInsight.objects.bulk_create(items)
        _mark_retrieved(Insight, seen)
        memory_items = [
            RecalledPersonaMemory(
                recall=recall,
                memory_id=scored.candidate.id,
                persona_id=persona_id,
                recency=scored.recency,
                relevance=scored.relevance,
                importance=scored.importance,
                score=scored.score,
                rank=rank,
            )
            for persona_id, picked in per_persona.items()
            for rank, scored in enumerate(picked)
        ]
        RecalledPersonaMemory.objects.bulk_create(memory_items)
        _mark_retrieved(PersonaMemory, {item.memory_id for item in memory_items})
        if items or memory_items or recall.method == MemoryRecall.Method.TEXT:
            facts = sum(1 for item in items if item.established)
            event_append(
                debate_id=debate.id,
                payload=p.MemoryRecalled(
                    method=recall.method,
                    facts=facts,
                    insights=len(items) - facts,
                    persona_memories=len(memory_items),
                ),
            )
    return recall


def _mark_retrieved(model, ids) -> None:
    """One UPDATE with F(): concurrent recalls never lose a count."""
    if ids:
        model.objects.filter(id__in=list(ids)).update(
            times_retrieved=F("times_retrieved") + 1, last_retrieved_at=timezone.now()
        )


def recalled_for(*, debate: Debate) -> tuple[list[RecalledInsight], list[RecalledInsight], str]:
    """(established facts, other insights, note) the debate recalled, in rank order."""
    recall = MemoryRecall.objects.filter(debate=debate).first()
    if recall is None:
        return [], [], ""
    items = list(recall.items.select_related("insight").order_by("rank"))
    return [i for i in items if i.established], [i for i in items if not i.established], recall.note


def persona_recalled_for(*, debate: Debate, persona) -> list[RecalledPersonaMemory]:
    return list(
        RecalledPersonaMemory.objects.filter(recall__debate=debate, persona=persona)
        .select_related("memory")
        .order_by("rank")
    )
