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
from memory.models import (
    Insight,
    MemoryRecall,
    PersonaMemory,
    RecalledInsight,
    RecalledPersonaMemory,
)
from memory.services.insights import insights_in_scope, insights_search, insights_text_search, query_embed
from memory.services.persona_memory import persona_memories_top


def debate_recall(*, debate: Debate) -> MemoryRecall | None:
    existing = MemoryRecall.objects.filter(debate=debate).first()
    if existing is not None or debate.owner_id is None:
        return existing
    owner, project = debate.owner, debate.context_project
    personas = [p.persona for p in debate.participants.select_related("persona").order_by("seat")]
    has_insights = insights_in_scope(owner=owner, project=project).exists()
    has_memories = PersonaMemory.objects.filter(owner=owner, persona__in=personas).exists()
    query_vector, note = None, ""
    if has_insights or has_memories:  # nothing to search: no embedding call
        query_vector, note = query_embed(debate.topic, debate_id=debate.id)
    if query_vector is None and has_insights:
        result = insights_text_search(owner=owner, project=project, query=debate.topic, note=note)
    else:
        result = insights_search(owner=owner, project=project, query=debate.topic, query_vector=query_vector)
    per_persona = {
        persona.id: persona_memories_top(owner=owner, persona=persona, query_vector=query_vector, exclude_debate=debate)
        for persona in personas
    }
    with transaction.atomic():
        recall, created = MemoryRecall.objects.get_or_create(
            debate=debate, defaults={"method": result.method, "note": note or result.note}
        )
        if not created:
            return recall
        established_ids = {r.insight.id for r in result.established}
        items, seen = [], set()
        for recalled in [*result.established, *result.insights]:
            if recalled.insight.id in seen:
                continue
            seen.add(recalled.insight.id)
            items.append(
                RecalledInsight(
                    recall=recall,
                    insight=recalled.insight,
                    similarity=recalled.similarity,
                    established=recalled.insight.id in established_ids,
                    rank=len(items),
                )
            )
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
