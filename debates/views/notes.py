"""Saving a finished debate's results, or one of its crux cards, to one of the owner's projects."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from debates.services.notes import debate_card_note_save, debate_note_save, debate_synthesis_note_save
from debates.views.access import debate_for_owner
from gateways.input_rules import object_id
from projects.models import Project


@login_required
@require_POST
def debate_save_note(request, debate_id):
    debate = debate_for_owner(request, debate_id)
    project = get_object_or_404(Project, pk=object_id(request.POST.get("project")), owner=request.user)
    card_id = request.POST.get("card", "")
    synthesis = request.POST.get("what") == "synthesis"
    try:
        if card_id:
            note = debate_card_note_save(debate=debate, project=project, card_id=card_id)
        elif synthesis:
            note = debate_synthesis_note_save(debate=debate, project=project)
        else:
            note = debate_note_save(debate=debate, project=project)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        back = "debate_results" if request.POST.get("next") == "results" else "debate_live"
        return redirect(back, debate_id=debate.id)
    what = "the crux card" if card_id else "the synthesis" if synthesis else "the results"
    messages.success(request, f"Saved {what} to “{project.name}” as a note.")
    return redirect("note_detail", project_id=project.pk, note_id=note.pk)
