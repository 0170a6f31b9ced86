"""Reading memory for its pages: always through the owner."""

from __future__ import annotations

from django.db.models import QuerySet

from memory.models import Insight, MemoryRecall, PersonaMemory


def insights_of_project(*, project) -> QuerySet[Insight]:
    """All the project's insights, each with the repository or assignment it is scoped to (if any)."""
    return Insight.objects.filter(project=project, owner_id=project.owner_id).select_related(
        "debate", "repository", "assignment"
    )


def persona_memories_of_project(*, project) -> QuerySet[PersonaMemory]:
    return (
        PersonaMemory.objects.filter(project=project, owner_id=project.owner_id)
        .select_related("persona", "debate")
        .order_by("persona__name", "-created_at")
    )


def persona_memories_of(*, owner, persona) -> QuerySet[PersonaMemory]:
    return PersonaMemory.objects.filter(owner=owner, persona=persona).select_related("debate", "project")


def recall_of(*, debate) -> MemoryRecall | None:
    return (
        MemoryRecall.objects.filter(debate=debate)
        .prefetch_related("items__insight__debate", "persona_items__memory__debate", "persona_items__persona")
        .first()
    )


def candidate_facts_of(*, owner, project=None) -> QuerySet[Insight]:
    """The owner's facts awaiting review (one project's, if given), oldest first."""
    facts = Insight.objects.filter(owner=owner, review=Insight.Review.CANDIDATE)
    if project is not None:
        facts = facts.filter(project=project)
    return facts.select_related("debate", "project").order_by("created_at", "id")
