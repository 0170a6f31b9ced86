"""A Collaborate run's artifact: as a Markdown file (what Download saves and Copy puts on the
clipboard) and saved to one of the owner's projects as a document."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from debates.services.artifacts import debate_artifact, debate_artifact_filename, debate_artifact_save
from debates.views.access import debate_for_owner, debate_for_viewer
from gateways.input_rules import object_id
from projects.models import Project


@login_required
def debate_artifact_markdown(request, debate_id):
    debate = debate_for_viewer(request, debate_id)
    artifact = debate_artifact(debate)
    if not artifact:
        raise Http404("This debate has no artifact.")
    # Served as a download, never rendered: the model wrote it.
    response = HttpResponse(artifact, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{debate_artifact_filename(debate)}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_POST
def debate_save_artifact(request, debate_id):
    debate = debate_for_owner(request, debate_id)
    project = get_object_or_404(Project, pk=object_id(request.POST.get("project")), owner=request.user)
    try:
        document = debate_artifact_save(debate=debate, project=project)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("debate_live", debate_id=debate.id)
    messages.success(request, f"Saved the artifact to “{project.name}” as a document.")
    return redirect("document_detail", project_id=project.pk, document_id=document.pk)
