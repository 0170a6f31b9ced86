"""Memory pages: a project's memory, a persona's memory of the user's debates, what one debate
recalled. Everything is the owner's: anyone else gets a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import F
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from debates.models import Debate
from memory import selectors
from memory.models import Insight, PersonaMemory
from memory.services import review
from personas.models import Persona
from personas.selectors import visible_to
from projects.models import Project


@login_required
def project_memory(request, project_id):
    project = get_object_or_404(Project, pk=project_id, owner=request.user)
    return render(
        request,
        "memory/project.html",
        {
            "project": project,
            "insights": selectors.insights_of_project(project=project),
            "candidates": selectors.candidate_facts_of(owner=request.user, project=project),
            "persona_memories": selectors.persona_memories_of_project(project=project),
        },
    )


@login_required
def persona_memory(request, persona_id):
    # Ids are unique per owner: a shared persona loaded after a user took its id leaves two; theirs wins.
    persona = (
        Persona.objects.filter(visible_to(request.user), persona_id=persona_id)
        .order_by(F("owner_id").asc(nulls_last=True))
        .first()
    )
    if persona is None:
        raise Http404("No such persona.")
    return render(
        request,
        "memory/persona.html",
        {"persona": persona, "memories": selectors.persona_memories_of(owner=request.user, persona=persona)},
    )


@login_required
def debate_memory(request, debate_id):
    debate = get_object_or_404(Debate, pk=debate_id, owner=request.user)
    return render(request, "memory/debate.html", {"debate": debate, "recall": selectors.recall_of(debate=debate)})


@login_required
def fact_review_list(request):
    """Every candidate fact of the owner's, whatever project (or none) its debate had."""
    return render(request, "memory/review.html", {"candidates": selectors.candidate_facts_of(owner=request.user)})


def _candidate(request, insight_id) -> Insight:
    return get_object_or_404(Insight, pk=insight_id, owner=request.user, review=Insight.Review.CANDIDATE)


@login_required
@require_POST
def fact_confirm(request, insight_id):
    insight = review.fact_confirm(insight=_candidate(request, insight_id))
    messages.success(request, "Confirmed: later debates on related questions take it as settled.")
    return redirect(_after_review(request, insight))


@login_required
@require_POST
def fact_edit(request, insight_id):
    insight = _candidate(request, insight_id)
    try:
        review.fact_edit(insight=insight, text=request.POST.get("text", ""))
    except ValidationError as error:
        messages.error(request, error.messages[0])
    else:
        messages.success(request, "Saved in your words and confirmed.")
    return redirect(_after_review(request, insight))


@login_required
@require_POST
def fact_reject(request, insight_id):
    insight = review.fact_reject(insight=_candidate(request, insight_id))
    messages.success(request, "Rejected: no later debate will recall it.")
    return redirect(_after_review(request, insight))


def _after_review(request, insight) -> str:
    if request.POST.get("next") == "project" and insight.project_id:
        return reverse("project_memory", args=[insight.project_id])
    return reverse("fact_review_list")


@login_required
@require_POST
def insight_delete(request, insight_id):
    insight = get_object_or_404(Insight, pk=insight_id, owner=request.user)
    insight.delete()
    messages.success(request, "Deleted the insight: no later debate will recall it.")
    return redirect(_back(request, insight.project_id))


@login_required
@require_POST
def persona_memory_delete(request, memory_id):
    memory = get_object_or_404(PersonaMemory.objects.select_related("persona"), pk=memory_id, owner=request.user)
    memory.delete()
    messages.success(request, f"Deleted the memory: {memory.persona.name} will not recall it.")
    if request.POST.get("next") == "persona":
        return redirect("persona_memory", memory.persona.persona_id)
    return redirect(_back(request, memory.project_id))


def _back(request, project_id) -> str:
    return reverse("project_memory", args=[project_id]) if project_id else reverse("home")
