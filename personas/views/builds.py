"""Building a persona from a corpus (upload, a worker drafts, the owner reviews and saves) and
replacing a persona's corpus. The owner's only: anyone else gets a 404."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from gateways.llm.batches import batching_available
from personas import selectors
from personas.corpus.builder import BuildError
from personas.corpus.selectors import corpus_document_list
from personas.corpus.sources import ACCEPTED, CorpusError
from personas.forms import CorpusUploadForm, PersonaBuildForm, PersonaContractForm
from personas.models import CorpusUpload, Persona, PersonaBuild
from personas.services import builds
from personas.views.pages import CONTRACT_FORM_PARTS, POLL_SECONDS


def _posted(request):
    return (request.POST, request.FILES) if request.method == "POST" else ()


@login_required
def persona_build_new(request):
    form = PersonaBuildForm(*_posted(request), batching=batching_available())
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            build = builds.persona_build_start(
                owner=request.user,
                name=form.cleaned_data["name"],
                uploads=form.cleaned_data["uploads"],
                batched=form.cleaned_data.get("batched", False),
            )
        except CorpusError as error:
            errors = error.errors
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("persona_build", pk=build.pk)
    return render(request, "personas/build_new.html", {"form": form, "errors": errors, "accepted": ACCEPTED})


@login_required
def persona_build(request, pk):
    """A build: drafting (a spinner that polls), failed (why), or its draft to review and save."""
    build = get_object_or_404(PersonaBuild, pk=pk, owner=request.user)
    if build.status == PersonaBuild.Status.SAVED and build.persona_id:
        return redirect("persona_detail", pk=build.persona_id)
    context = {**_working(build), **CONTRACT_FORM_PARTS}
    if build.status == PersonaBuild.Status.READY:
        draft = builds.build_draft(build)
        form = PersonaContractForm(request.POST or None, instance=builds.draft_as_persona(draft.contract))
        context["errors"] = build.errors  # why a worker could not store it last time
        if request.method == "POST" and form.is_valid():
            try:
                builds.persona_build_save(build=build, user=request.user, edited=form.save(commit=False))
            except BuildError as error:
                context["errors"] = error.errors
            else:
                return redirect("persona_build", pk=build.pk)
        context |= {"form": form, "draft": draft, "excerpts": draft.contract.get("anchorExcerpts", [])}
    return render(request, "personas/build.html", context)


@login_required
def persona_build_status(request, pk):
    """What the build page polls while a worker has it: the same spinner, then a full reload to
    show the draft (or why it failed, or the saved persona)."""
    build = get_object_or_404(PersonaBuild, pk=pk, owner=request.user)
    if build.is_working:
        return render(request, "personas/partials/build_working.html", _working(build))
    return _reload()


# A draft waiting in a batch queue takes minutes to an hour: its page looks less often, at most as
# often as the worker looks at the batch (nothing can change between two of its looks).
BATCH_PAGE_POLL_SECONDS = 15


def _batch_page_poll_seconds() -> int:
    return max(POLL_SECONDS, min(BATCH_PAGE_POLL_SECONDS, round(settings.FAULTLINE_BATCH_POLL_SECONDS)))


def _working(build: PersonaBuild) -> dict:
    """The spinner's context: the build, how often the page looks again, the batch's longest wait."""
    return {
        "build": build,
        "poll_seconds": _batch_page_poll_seconds() if build.waits_on_batch else POLL_SECONDS,
        "batch_max_wait_minutes": round(settings.FAULTLINE_BATCH_MAX_WAIT_SECONDS / 60),
    }


def _reload() -> HttpResponse:
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


@login_required
def persona_corpus_status(request, pk):
    """What the persona page polls while its corpus is being stored."""
    persona = get_object_or_404(Persona, pk=pk, owner=request.user)
    upload = selectors.corpus_upload_latest(persona=persona)
    if upload is not None and upload.status == CorpusUpload.Status.STORING:
        return render(request, "personas/partials/corpus_upload.html", {"upload": upload, "poll_seconds": POLL_SECONDS})
    return _reload()


@login_required
@require_POST
def persona_build_discard(request, pk):
    build = get_object_or_404(PersonaBuild, pk=pk, owner=request.user)
    builds.persona_build_discard(build=build, user=request.user)
    messages.success(request, f"Discarded the draft of “{build.name}”.")
    return redirect("persona_list")


@login_required
def persona_corpus(request, pk):
    persona = get_object_or_404(Persona, pk=pk, owner=request.user)
    form = CorpusUploadForm(*_posted(request))
    errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            builds.persona_corpus_upload_start(persona=persona, user=request.user, uploads=form.cleaned_data["uploads"])
        except CorpusError as error:
            errors = error.errors
        else:
            return redirect("persona_detail", pk=persona.pk)
    return render(
        request,
        "personas/corpus.html",
        {
            "persona": persona,
            "form": form,
            "errors": errors,
            "accepted": ACCEPTED,
            "documents": corpus_document_list(persona=persona),
        },
    )
