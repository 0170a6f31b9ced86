"""Reading a user's projects: only ever their own."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from projects.models import Assignment, Document, Note, Project, Repository


def project_list_for(*, user) -> QuerySet[Project]:
    return Project.objects.filter(owner=user).annotate(
        note_count=Count("notes", distinct=True), document_count=Count("documents", distinct=True)
    )


def project_named(*, user, name: str) -> Project | None:
    return Project.objects.filter(owner=user, name__iexact=name.strip()).first()


@dataclass
class ProjectContents:
    notes: QuerySet[Note]
    debates: QuerySet
    documents: QuerySet[Document]
    query: str


def project_contents(*, project: Project, query: str = "") -> ProjectContents:
    """The project's notes, debates and documents, matching ``query`` when one is given (title,
    text, tags; a debate's topic)."""
    notes = project.notes.all()
    debates = project.debates.all()
    documents = project.documents.all()
    query = query.strip()
    if query:
        notes = notes.filter(Q(title__icontains=query) | Q(content__icontains=query) | Q(tags__icontains=query))
        debates = debates.filter(topic__icontains=query)
        documents = documents.filter(Q(title__icontains=query) | Q(text__icontains=query))
    return ProjectContents(
        notes=notes, debates=debates.order_by("-created_at"), documents=documents.defer("text", "upload"), query=query
    )


def context_targets_for(*, user) -> list[tuple[str, list[tuple[str, str]]]]:
    """What a debate of this user's can take as its context, grouped for a <select>:
    values are 'project:<id>', 'assignment:<id>' or 'repository:<id>'."""
    projects = list(Project.objects.filter(owner=user).order_by("name"))
    assignments = (
        Assignment.objects.filter(project__owner=user).select_related("project").order_by("project__name", "name")
    )
    repos = (
        Repository.objects.filter(project__owner=user, status=Repository.Status.READY)
        .select_related("project")
        .defer("upload")
        .order_by("project__name", "name")
    )
    groups = []
    if projects:
        groups.append(("Projects", [(f"project:{p.pk}", p.name) for p in projects]))
    if assignments:
        groups.append(("Assignments", [(f"assignment:{a.pk}", f"{a.project.name} › {a.name}") for a in assignments]))
    if repos:
        groups.append(("Repositories", [(f"repository:{r.pk}", f"{r.project.name} › {r.name}") for r in repos]))
    return groups


def context_target(*, user, value: str) -> Project | Assignment | Repository | None:
    """The user's own project, assignment or repository a context value names; None for 'none'
    or anything that is not theirs."""
    kind, _, pk = (value or "").partition(":")
    if not pk.isdigit():
        return None
    if kind == "project":
        return Project.objects.filter(owner=user, pk=pk).first()
    if kind == "assignment":
        return Assignment.objects.filter(project__owner=user, pk=pk).select_related("project").first()
    if kind == "repository":
        return Repository.objects.filter(project__owner=user, pk=pk).select_related("project").first()
    return None
