"""Persona memory (blackboard phase 5): what each persona held, conceded and said that mattered,
kept per persona and per owner, and recalled into that persona's later debates by
0.5·recency + 3·relevance + 2·importance inside a token budget (memory/scoring.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.utils import timezone

from crux.models import CruxCard
from debates.blackboard.models import PositionState, Reflection
from debates.models import Debate, Message
from gateways.embeddings import gateway as embeddings
from memory.models import PersonaMemory
from memory.scoring import Candidate, Scored, memories_pick
from memory.services.insights import distance_to, nearest_rows
from memory.services.storing import debate_memories_replace

logger = logging.getLogger(__name__)

MESSAGE_MIN_IMPORTANCE = 7
CANDIDATES = 50  # nearest memories scored per persona
BUDGET_TOKENS = 250
TOP = 8
MAX_TEXT = 400
STANCE, SHIFT, CONCESSION, CRUX = 6, 7, 8, 8


@dataclass(frozen=True)
class MemoryDraft:
    persona_id: int
    kind: str
    text: str
    importance: int


def _clip(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rsplit(" ", 1)[0] + "…"


def persona_memory_drafts(*, debate: Debate) -> list[MemoryDraft]:
    """Written in the second person: each goes, as it is, into that persona's own prompt later."""
    on = f"In the debate “{_clip(debate.topic)[:200]}”"
    drafts: list[MemoryDraft] = []
    personas = set(debate.participants.values_list("persona_id", flat=True))
    for state in PositionState.objects.filter(debate=debate, persona_id__in=personas):
        for shift in state.shifts:
            text = shift.get("shift", "") if isinstance(shift, dict) else str(shift)
            if text:
                drafts.append(MemoryDraft(state.persona_id, "position", f"{on} your position moved: {text}", SHIFT))
        if state.overall_stance:
            drafts.append(
                MemoryDraft(state.persona_id, "position", f"{on} you ended at: {state.overall_stance}", STANCE)
            )
        for concession in state.concessions:
            text = concession.get("concession", "") if isinstance(concession, dict) else str(concession)
            if text:
                drafts.append(MemoryDraft(state.persona_id, "concession", f"{on} you conceded: {text}", CONCESSION))
    for reflection in Reflection.objects.filter(debate=debate):
        for persona_id in set(reflection.about_persona_ids) & personas:
            drafts.append(
                MemoryDraft(
                    persona_id, "reflection", f"{on} it was noticed: {reflection.content}", reflection.importance
                )
            )
    for card in CruxCard.objects.filter(debate=debate):
        for key, position in card.positions.items():
            if str(key).isdigit() and int(key) in personas:
                reasoning = position.get("reasoning", "")
                text = f"{on} crux “{card.question}”: you said {position.get('position', '?')}. {reasoning}"
                drafts.append(MemoryDraft(int(key), "crux_card", text, CRUX))
    important = Message.objects.filter(
        debate=debate, status=Message.Status.COMPLETE, importance__gte=MESSAGE_MIN_IMPORTANCE
    )
    for message in important.order_by("room_id", "turn"):
        drafts.append(MemoryDraft(message.persona_id, "message", f"{on} you said: {message.text}", message.importance))
    return [MemoryDraft(d.persona_id, d.kind, _clip(d.text), max(1, min(10, d.importance))) for d in drafts]


def persona_memories_remember(*, debate: Debate) -> list[PersonaMemory]:
    """Extract, embed and store (replacing the debate's earlier ones: a resumed run may come twice)."""
    if debate.owner_id is None:
        return []
    drafts = persona_memory_drafts(debate=debate)
    return debate_memories_replace(
        PersonaMemory,
        debate=debate,
        drafts=drafts,
        phase="persona_memory",
        fields=lambda draft: {
            "owner_id": debate.owner_id,
            "persona_id": draft.persona_id,
            "project_id": debate.context_project_id,
            "kind": draft.kind,
            "importance": draft.importance,
        },
    )


def persona_memories_top(
    *, owner, persona, query_vector: list[float] | None, exclude_debate=None, floor: float | None = None
) -> list[Scored]:
    """The persona's best memories for a query, scored, among those at least ``floor`` similar
    to it (the model's insight floor, memory/relevance.py: an unrelated memory is not recalled
    however recent or important). Without a query vector (the embedding failed) relevance is the
    same for all, so recency and importance decide."""
    scope = PersonaMemory.objects.filter(owner=owner, persona=persona)
    if exclude_debate is not None:
        scope = scope.exclude(debate=exclude_debate)
    if query_vector is not None:
        rows = nearest_rows(
            scope.filter(embedding_model=embeddings.current_model(), embedding__isnull=False)
            .annotate(distance=distance_to(query_vector))
            .order_by("distance")[:CANDIDATES]
        )
        if floor is not None:
            rows = [row for row in rows if 1 - row.distance >= floor]
        similarity = {row.id: 1 - row.distance for row in rows}
    else:
        rows = scope.order_by("-created_at")[:CANDIDATES]
        similarity = {row.id: 0.0 for row in rows}
    now = timezone.now()
    candidates = [
        Candidate(
            id=row.id,
            text=row.text,
            hours_ago=(now - (row.last_retrieved_at or row.created_at)).total_seconds() / 3600,
            similarity=similarity[row.id],
            importance=row.importance,
        )
        for row in rows
    ]
    return memories_pick(candidates, budget_tokens=BUDGET_TOKENS, top=TOP)
