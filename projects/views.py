"""Projects and what they hold: the owner's only. Anyone else gets 404 on every URL here, so a
project's existence is not revealed. Views are short: access, form, service, redirect."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from gateways.pages import confirm_delete, form_page
from projects import selectors, services
from projects.forms import AssignmentForm, DocumentForm, NoteForm, ProjectForm, RepositoryForm
from projects.models import Assignment, Document, Note, Project, Repository


def project_for_owner(request, project_id) -> Project:
    return get_object_or_404(Project, pk=project_id, owner=request.user)


def _part(model, request, project_id, part_id):
    """One of the owner's project's assignments, documents, repositories or notes; 404 otherwise."""
    return get_object_or_404(
        model.objects.select_related("project"), pk=part_id, project__owner=request.user, project_id=project_id
    )


def _form_page(request, form, *, save, title: str, project=None, upload: bool = False):
    context = {"title": title, "project": project}
    if upload:
        context |= {"multipart": True, "limit_mb": services.upload_limit_bytes() // (1024 * 1024)}
    return form_page(request, form, save=save, template="projects/form.html", context=context)


# ── projects ───────────────────────────────────────────────────────────────────────────────────


@login_required
def project_list(request):
    return render(request, "projects/list.html", {"projects": selectors.project_list_for(user=request.user)})


@login_required
def project_new(request):
    def save(form):
        project = services.project_save(project=form.instance)
        return redirect("project_detail", project_id=project.pk)

    form = ProjectForm(request.POST or None, instance=Project(owner=request.user))
    return _form_page(request, form, save=save, title="New project")


@login_required
def project_detail(request, project_id):
    project = project_for_owner(request, project_id)
    contents = selectors.project_contents(project=project, query=request.GET.get("q", ""))
    return render(
        request,
        "projects/detail.html",
        {
            "project": project,
            "contents": contents,
            "assignments": project.assignments.all(),
            "repositories": project.repositories.defer("upload"),
        },
    )


@login_required
def project_edit(request, project_id):
    project = project_for_owner(request, project_id)

    def save(form):
        services.project_save(project=form.instance)
        return redirect("project_detail", project_id=project.pk)

    form = ProjectForm(request.POST or None, instance=project)
    return _form_page(request, form, save=save, title=f"Edit “{project.name}”", project=project)


@login_required
def project_delete(request, project_id):
    project = project_for_owner(request, project_id)
    return confirm_delete(
        request,
        thing=project,
        what="project (its assignments, documents, repositories and notes with it; its debates stay)",
        cancel_url=reverse("project_detail", args=[project.pk]),
        done_url=reverse("project_list"),
        delete=project.delete,
    )


# ── assignments ────────────────────────────────────────────────────────────────────────────────


def _assignment_form(request, project, assignment):
    def save(form):
        form.instance.checklist = services.checklist_parse(form.cleaned_data["checklist_text"])
        services.assignment_save(assignment=form.instance)
        return redirect(reverse("project_detail", args=[project.pk]) + f"#assignment-{assignment.pk}")

    form = AssignmentForm(request.POST or None, instance=assignment)
    title = f"Edit “{assignment.name}”" if assignment.pk else "New assignment"
    return _form_page(request, form, save=save, title=title, project=project)


@login_required
def assignment_new(request, project_id):
    project = project_for_owner(request, project_id)
    return _assignment_form(request, project, Assignment(project=project))


@login_required
def assignment_edit(request, project_id, assignment_id):
    assignment = _part(Assignment, request, project_id, assignment_id)
    return _assignment_form(request, assignment.project, assignment)


@login_required
@require_POST
def assignment_toggle(request, project_id, assignment_id, index):
    assignment = _part(Assignment, request, project_id, assignment_id)
    try:
        assignment = services.assignment_toggle_task(assignment=assignment, index=index)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    if request.htmx:
        return render(request, "projects/partials/checklist.html", {"assignment": assignment})
    return redirect(reverse("project_detail", args=[project_id]) + f"#assignment-{assignment.pk}")


@login_required
def assignment_delete(request, project_id, assignment_id):
    assignment = _part(Assignment, request, project_id, assignment_id)
    url = reverse("project_detail", args=[project_id])
    return confirm_delete(
        request, thing=assignment, what="assignment", cancel_url=url, done_url=url, delete=assignment.delete
    )


# ── documents ──────────────────────────────────────────────────────────────────────────────────


@login_required
def document_new(request, project_id):
    project = project_for_owner(request, project_id)

    def save(form):
        document = services.document_attach(
            project=project, upload=form.cleaned_data["file"], title=form.cleaned_data["title"]
        )
        messages.success(request, f"Attached “{document.title}” ({document.get_kind_display()}): reading it…")
        return redirect(reverse("project_detail", args=[project.pk]) + "#documents")

    form = DocumentForm(request.POST or None, request.FILES or None)
    return _form_page(request, form, save=save, title="Attach a document", project=project, upload=True)


@login_required
def document_detail(request, project_id, document_id):
    document = _part(Document, request, project_id, document_id)
    return render(request, "projects/document.html", {"document": document, "project": document.project})


@login_required
def document_row(request, project_id, document_id):
    """What a document's row polls while a worker reads it: the same row, then ready or refused."""
    document = _part(Document, request, project_id, document_id)
    return render(request, "projects/partials/document_row.html", {"document": document, "project": document.project})


@login_required
def document_delete(request, project_id, document_id):
    document = _part(Document, request, project_id, document_id)
    url = reverse("project_detail", args=[project_id])
    return confirm_delete(
        request, thing=document, what="document", cancel_url=url, done_url=url, delete=document.delete
    )


# ── repositories ───────────────────────────────────────────────────────────────────────────────


@login_required
def repository_new(request, project_id):
    project = project_for_owner(request, project_id)

    def save(form):
        data = form.cleaned_data
        repository = services.repository_attach(
            project=project,
            source=data["source"],
            name=data["name"],
            path=data["path"],
            url=data["url"],
            upload=data["archive"],
        )
        return redirect("repository_detail", project_id=project.pk, repository_id=repository.pk)

    form = RepositoryForm(request.POST or None, request.FILES or None)
    return _form_page(request, form, save=save, title="Attach a repository", project=project, upload=True)


@login_required
def repository_detail(request, project_id, repository_id):
    repository = _part(Repository, request, project_id, repository_id)
    return render(request, "projects/repository.html", {"repository": repository, "project": repository.project})


@login_required
def repository_status(request, project_id, repository_id):
    """What a repository's page polls while a worker reads its archive: the same notice, then a
    full reload to show what was read (or why not)."""
    repository = _part(Repository, request, project_id, repository_id)
    if repository.status == Repository.Status.READING:
        context = {"repository": repository, "project": repository.project}
        return render(request, "projects/partials/repository_reading.html", context)
    response = HttpResponse("")
    response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def repository_refresh(request, project_id, repository_id):
    repository = _part(Repository, request, project_id, repository_id)
    try:
        services.repository_refresh(repository=repository)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Read “{repository.name}” again.")
    return redirect("repository_detail", project_id=project_id, repository_id=repository.pk)


@login_required
def repository_delete(request, project_id, repository_id):
    repository = _part(Repository, request, project_id, repository_id)
    url = reverse("project_detail", args=[project_id])
    return confirm_delete(
        request, thing=repository, what="repository", cancel_url=url, done_url=url, delete=repository.delete
    )


# ── notes ──────────────────────────────────────────────────────────────────────────────────────


def _note_form(request, project, note):
    def save(form):
        form.instance.tags = services.tags_parse(form.cleaned_data["tags_text"])
        services.note_save(note=form.instance)
        return redirect("note_detail", project_id=project.pk, note_id=note.pk)

    form = NoteForm(request.POST or None, instance=note)
    title = f"Edit “{note.title}”" if note.pk else "New note"
    return _form_page(request, form, save=save, title=title, project=project)


@login_required
def note_new(request, project_id):
    project = project_for_owner(request, project_id)
    return _note_form(request, project, Note(project=project))


@login_required
def note_detail(request, project_id, note_id):
    note = _part(Note, request, project_id, note_id)
    # The linked debate is shown only while it is still the owner's own.
    debate = note.debate if note.debate_id and note.debate.owner_id == request.user.pk else None
    return render(request, "projects/note.html", {"note": note, "project": note.project, "debate": debate})


@login_required
def note_edit(request, project_id, note_id):
    note = _part(Note, request, project_id, note_id)
    return _note_form(request, note.project, note)


@login_required
def note_delete(request, project_id, note_id):
    note = _part(Note, request, project_id, note_id)
    url = reverse("project_detail", args=[project_id])
    return confirm_delete(request, thing=note, what="note", cancel_url=url, done_url=url, delete=note.delete)
