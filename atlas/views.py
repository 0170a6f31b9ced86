"""The crux atlas's pages: thin, the owner's own rows only (404 for anyone else's)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from atlas.exports import atlas_json, atlas_markdown
from atlas.forms import OutcomeForm, PredictionForm, RerunForm
from atlas.models import Prediction
from atlas.selectors import atlas_for
from atlas.services import predictions, reruns
from crux.models import CruxCard
from debates.views.access import debate_for_owner
from gateways.pages import service_errors_add
from personas.models import Persona
from personas.selectors import deck_personas_for, personas_visible_to
from projects.models import Project


def _project(request, project_id):
    if project_id is None:
        return None
    return get_object_or_404(Project, pk=project_id, owner=request.user)


@login_required
def atlas_page(request, project_id=None):
    project = _project(request, project_id)
    atlas = atlas_for(owner=request.user, project=project, query=request.GET.get("q", "").strip()[:200])
    return render(request, "atlas/atlas.html", {"atlas": atlas, "project": project})


@login_required
def atlas_export(request, fmt, project_id=None):
    project = _project(request, project_id)
    atlas = atlas_for(owner=request.user, project=project, query=request.GET.get("q", "").strip()[:200])
    name = f"crux-atlas{'-project-' + str(project.pk) if project else ''}"
    if fmt == "md":
        response = HttpResponse(atlas_markdown(atlas, project=project), content_type="text/markdown; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.md"'
        return response
    if fmt == "json":
        body = json.dumps(atlas_json(atlas, project=project), indent=2, ensure_ascii=False)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
    raise Http404("No such format.")


def _card_for_owner(request, card_id) -> CruxCard:
    return get_object_or_404(CruxCard.objects.select_related("debate", "room"), pk=card_id, debate__owner=request.user)


@login_required
def card_predictions(request, card_id):
    """A card, its falsifiers (the checkable ones with a suggested prediction), and its predictions."""
    card = _card_for_owner(request, card_id)
    rows = predictions.card_falsifiers(card=card)
    personas = [(row.persona_id, row.name) for row in rows if row.persona_id is not None and row.prediction is None]
    form = PredictionForm(request.POST or None, personas=personas)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            predictions.prediction_create(
                card=card,
                persona_id=data["persona"],
                claim=data["claim"],
                settled_by=data["settled_by"],
                check_by=data["check_by"],
            )
        except ValidationError as error:
            service_errors_add(form, error)
        else:
            return redirect("atlas_card", card_id=card.id)
    return render(
        request,
        "atlas/card.html",
        {"card": card, "rows": rows, "form": form, "predictions": card.predictions.select_related("persona")},
    )


@login_required
def prediction_detail(request, prediction_id):
    prediction = get_object_or_404(
        Prediction.objects.select_related("card__debate", "persona"), pk=prediction_id, card__debate__owner=request.user
    )
    initial = {"status": prediction.status, "outcome_note": prediction.outcome_note, "check_by": prediction.check_by}
    form = OutcomeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            predictions.prediction_update(prediction=prediction, **form.cleaned_data)
        except ValidationError as error:
            service_errors_add(form, error)
        else:
            return redirect("atlas_card", card_id=prediction.card_id)
    return render(request, "atlas/prediction.html", {"prediction": prediction, "form": form})


@login_required
def rerun_new(request, debate_id):
    """Pick who to swap (and, if wanted, a related topic); then the setup page, prefilled."""
    debate = debate_for_owner(request, debate_id)
    hand = [(p.persona_id, p.persona.name) for p in debate.participants.select_related("persona")]
    in_hand = {persona_id for persona_id, _ in hand}
    # Swap in a persona of the debate's deck, so the setup page shows the hand dealt from it.
    pool = (
        deck_personas_for(deck=debate.deck, user=request.user)
        if debate.deck_id
        else personas_visible_to(user=request.user)
    )
    bench = [(p.pk, p.name) for p in pool if p.pk not in in_hand]
    initial = {"topic": (request.GET.get("topic") or debate.topic)[:2000]}
    form = RerunForm(request.GET if "swap_out" in request.GET else None, hand=hand, bench=bench, initial=initial)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        try:
            url = reruns.rerun_setup_url(
                debate=debate,
                swap_out=Persona.objects.filter(pk=data["swap_out"]).first() if data["swap_out"] else None,
                swap_in=Persona.objects.filter(pk=data["swap_in"]).first() if data["swap_in"] else None,
                user=request.user,
                topic=data["topic"],
            )
        except ValidationError as error:
            service_errors_add(form, error)
        else:
            return redirect(url)
    return render(request, "atlas/rerun.html", {"debate": debate, "form": form})
