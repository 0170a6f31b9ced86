"""Creating and changing a user's projects and what they hold: what the views and the CLI call.

Each change is one transaction: an upload that is too big, or of a kind Faultline does not read,
leaves nothing behind. Checks raise ValidationError with a message fit to show the user, keyed by
form field. Uploaded files are read by a worker in a limited child process (gateways/untrusted.py),
never in the web process: a document is "reading" until then, and "refused" (saying why) if it
could not be read.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from gateways.untrusted import UntrustedRefused, untrusted_read
from projects import archives, repositories
from projects.documents import MAX_TEXT_CHARS, DocumentUnreadable, document_kind
from projects.markdown import MARKDOWN_MAX_CHARS
from projects.models import Assignment, Document, Note, Project, Repository

logger = logging.getLogger(__name__)

NOTE_TAG_LIMIT = 12
NOTE_TOO_LONG = f"Keep a note to {MARKDOWN_MAX_CHARS:,} characters or fewer."
READ_DOCUMENT_TASK = "projects.read_document"
READ_ARCHIVE_TASK = "projects.read_repository_archive"


def upload_limit_bytes() -> int:
    return settings.FAULTLINE_UPLOAD_MAX_MB * 1024 * 1024


def _check_size(upload, field: str) -> None:
    limit = upload_limit_bytes()
    if upload.size > limit:
        raise ValidationError(
            {
                field: f"“{upload.name}” is {upload.size / 1024 / 1024:.1f} MB; "
                f"the largest file you can upload is {settings.FAULTLINE_UPLOAD_MAX_MB} MB."
            }
        )


# ── projects ───────────────────────────────────────────────────────────────────────────────────


def project_save(*, project: Project) -> Project:
    """Create or update; a name already used by another of the owner's projects is refused."""
    project.name = project.name.strip()
    if Project.objects.filter(owner=project.owner, name__iexact=project.name).exclude(pk=project.pk).exists():
        raise ValidationError({"name": f"You already have a project called “{project.name}”."})
    try:
        with transaction.atomic():
            project.save()
    except IntegrityError as exc:
        raise ValidationError({"name": f"You already have a project called “{project.name}”."}) from exc
    return project


def project_get_or_create(*, owner, name: str) -> tuple[Project, bool]:
    """The owner's project called ``name`` (any case), created if it does not exist (the CLI)."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": "Give the project a name."})
    existing = Project.objects.filter(owner=owner, name__iexact=name).first()
    if existing:
        return existing, False
    return project_save(project=Project(owner=owner, name=name)), True


# ── assignments ────────────────────────────────────────────────────────────────────────────────


def checklist_parse(text: str) -> list[dict]:
    """One task per line; a line starting with [x] is done, [ ] or nothing is not."""
    tasks = []
    for raw in (text or "").splitlines():
        line = raw.strip().lstrip("-*").strip()
        done = line[:3].lower() == "[x]"
        if line[:3].lower() in ("[x]", "[ ]"):
            line = line[3:].strip()
        if line:
            tasks.append({"text": line[:300], "done": done})
    return tasks


def checklist_text(checklist: list[dict]) -> str:
    return "\n".join(f"[{'x' if task.get('done') else ' '}] {task.get('text', '')}" for task in checklist)


def assignment_save(*, assignment: Assignment) -> Assignment:
    assignment.name = assignment.name.strip()
    clash = Assignment.objects.filter(project=assignment.project, name__iexact=assignment.name)
    if clash.exclude(pk=assignment.pk).exists():
        raise ValidationError({"name": f"This project already has an assignment called “{assignment.name}”."})
    assignment.save()
    return assignment


def assignment_toggle_task(*, assignment: Assignment, index: int) -> Assignment:
    with transaction.atomic():
        assignment = Assignment.objects.select_for_update().get(pk=assignment.pk)
        if not 0 <= index < len(assignment.checklist):
            raise ValidationError("That task is not on the checklist any more.")
        assignment.checklist[index]["done"] = not assignment.checklist[index].get("done")
        assignment.save(update_fields=["checklist", "updated_at"])
    return assignment


# ── documents ──────────────────────────────────────────────────────────────────────────────────


def document_attach(*, project: Project, upload, title: str = "") -> Document:
    """Keep an uploaded file for a worker to read (``document_read``): the document is "reading"
    until then. Too big, or not a kind of file Faultline reads: ValidationError, nothing saved."""
    _check_size(upload, "file")
    filename = upload.name.replace("\x00", "")
    try:
        kind = document_kind(filename)
    except DocumentUnreadable as exc:
        raise ValidationError({"file": str(exc)}) from exc
    data = b"".join(upload.chunks())
    with transaction.atomic():
        document = Document.objects.create(
            project=project,
            title=(title.strip() or filename)[:200],
            kind=kind,
            filename=filename[:255],
            size=len(data),
            status=Document.Status.READING,
            upload=data,
        )
        transaction.on_commit(lambda: current_app.send_task(READ_DOCUMENT_TASK, args=[document.pk]))
    return document


def document_read(*, document_id: int) -> None:
    """The worker's part: read the file in a limited child process; keep its text, or why not."""
    document = Document.objects.filter(pk=document_id, status=Document.Status.READING).first()
    if document is None:
        return  # deleted, or a redelivery of a document already read
    try:
        _, text = untrusted_read(
            "projects.documents:document_text",
            expected=(DocumentUnreadable,),
            filename=document.filename,
            data=bytes(document.upload or b""),
        )
    except UntrustedRefused as exc:
        document.status, document.refusal = Document.Status.REFUSED, " ".join(exc.lines_for(document.filename))[:500]
    else:
        document.status, document.text = Document.Status.READY, text
    document.upload = None
    document.save(update_fields=["status", "refusal", "text", "upload"])


def document_write(*, project: Project, title: str, text: str, filename: str) -> Document:
    """Keep a Markdown document written in Faultline (a collaboration's artifact) in ``project``,
    as an uploaded one would be kept: its text, its size in bytes, a file name to download it by."""
    text = (text or "").strip()
    if not text:
        raise ValidationError({"text": "There is nothing in this document to save."})
    data = text.encode()
    if len(text) > MARKDOWN_MAX_CHARS or len(data) > upload_limit_bytes():
        raise ValidationError({"text": "This document is too big to save to a project."})
    with transaction.atomic():
        return Document.objects.create(
            project=project,
            title=(title.strip() or filename)[:200],
            kind=Document.Kind.MARKDOWN,
            filename=filename[:255],
            size=len(data),
            text=text[:MAX_TEXT_CHARS],
        )


# ── repositories ───────────────────────────────────────────────────────────────────────────────


def _local_repository(path: str, *, any_path: bool) -> repositories.LocalRepository:
    """The web reads local repositories only under FAULTLINE_REPOSITORY_ROOTS, in every mode; the
    command line (``any_path``), run by the machine's own user, may read any folder that user can."""
    try:
        return repositories.check_local_path(path, allowed_roots=settings.FAULTLINE_REPOSITORY_ROOTS, anywhere=any_path)
    except repositories.RepositoryUnreadable as exc:
        raise ValidationError({"path": str(exc)}) from exc


def _store(repository: Repository, snapshot: repositories.RepositorySnapshot) -> Repository:
    repository.readme = snapshot.readme
    repository.tree = snapshot.tree
    repository.languages = snapshot.languages
    repository.commits = snapshot.commits
    repository.branches = snapshot.branches
    repository.read_note = snapshot.note[:300]
    repository.read_at = timezone.now()
    # Issues and pull requests GitHub did not give this time: the ones read before stay (dated).
    if snapshot.activity_read:
        repository.issues, repository.pull_requests = snapshot.issues, snapshot.pull_requests
        repository.activity_read_at = repository.read_at
    repository.save()
    return repository


def _read(
    *, source: str, path: str = "", url: str = "", upload=None, any_path: bool = False
) -> tuple[repositories.RepositorySnapshot, str]:
    """The snapshot and the local folder (if any) a repository is read from."""
    if source == Repository.Source.LOCAL:
        local = _local_repository(path, any_path=any_path)
        try:
            return repositories.read_local(local), str(local.folder)
        except repositories.RepositoryUnreadable as exc:
            raise ValidationError({"path": str(exc)}) from exc
    if source == Repository.Source.GITHUB:
        try:
            repositories.github_slug(url)
        except repositories.RepositoryUnreadable as exc:
            raise ValidationError({"url": str(exc)}) from exc
        try:
            return repositories.read_github(
                url, api_url=settings.FAULTLINE_GITHUB_API_URL, token=settings.GITHUB_TOKEN
            ), ""
        except repositories.RepositoryUnreadable as exc:
            # The same fallback the network gets everywhere: what is local, if the user gave it.
            if not path.strip():
                raise ValidationError(
                    {"url": f"{exc} Give the path of a local clone too, and it is read from there instead."}
                ) from exc
            local = _local_repository(path, any_path=any_path)
            try:
                snapshot = repositories.read_local(local)
            except repositories.RepositoryUnreadable as local_exc:
                raise ValidationError({"path": str(local_exc)}) from local_exc
            snapshot.note = f"{exc} Read from the local clone instead."
            return snapshot, str(local.folder)
    raise ValidationError({"source": "Pick where the repository comes from."})


def repository_attach(
    *,
    project: Project,
    source: str,
    name: str = "",
    path: str = "",
    url: str = "",
    upload=None,
    any_path: bool = False,
):
    """``any_path``: the command line's call, which may read a local folder outside the roots."""
    if source == Repository.Source.ARCHIVE:
        return _archive_attach(project=project, name=name, upload=upload)
    snapshot, folder = _read(source=source, path=path, url=url, upload=upload, any_path=any_path)
    with transaction.atomic():
        repository = Repository(
            project=project, name=(name.strip() or snapshot.name)[:200], source=source, path=folder, url=url.strip()
        )
        return _store(repository, snapshot)


def _archive_attach(*, project: Project, name: str, upload) -> Repository:
    """Keep an uploaded archive for a worker to read (``repository_archive_read``): the repository
    is "reading" until then. No archive, too big or not a .zip/.tar.gz: ValidationError."""
    if upload is None:
        raise ValidationError({"archive": "Choose a .zip or .tar.gz archive of the repository."})
    _check_size(upload, "archive")
    filename = upload.name.replace("\x00", "")
    if not filename.lower().endswith(archives.ARCHIVE_SUFFIXES):
        raise ValidationError(
            {"archive": f"“{filename}” is not an archive Faultline can read: upload a .zip or .tar.gz."}
        )
    with transaction.atomic():
        repository = Repository.objects.create(
            project=project,
            name=(name.strip() or archives.archive_name(filename))[:200],
            source=Repository.Source.ARCHIVE,
            filename=filename[:255],
            status=Repository.Status.READING,
            upload=b"".join(upload.chunks()),
        )
        transaction.on_commit(lambda: current_app.send_task(READ_ARCHIVE_TASK, args=[repository.pk]))
    return repository


def repository_archive_read(*, repository_id: int) -> None:
    """The worker's part: read the archive in a limited child process (every member and every
    unpacked byte counted); keep what it shows, or why it could not be read."""
    repository = Repository.objects.filter(pk=repository_id, status=Repository.Status.READING).first()
    if repository is None:
        return  # deleted, or a redelivery of an archive already read
    try:
        snapshot = untrusted_read(
            "projects.archives:archive_read",
            expected=(repositories.RepositoryUnreadable,),
            filename=repository.filename,
            data=bytes(repository.upload or b""),
            max_members=settings.FAULTLINE_ARCHIVE_MAX_MEMBERS,
            max_unpacked_bytes=settings.FAULTLINE_ARCHIVE_MAX_UNPACKED_MB * 1024 * 1024,
        )
    except UntrustedRefused as exc:
        reason = " ".join(exc.lines_for(repository.filename))[:500]
        repository.status, repository.refusal, repository.upload = Repository.Status.REFUSED, reason, None
        repository.save(update_fields=["status", "refusal", "upload"])
        return
    repository.status, repository.upload = Repository.Status.READY, None
    _store(repository, repositories.RepositorySnapshot(**snapshot))


def repository_refresh(*, repository: Repository) -> Repository:
    """Read a local or GitHub repository again (an archive is what it was when uploaded)."""
    if repository.source == Repository.Source.ARCHIVE:
        raise ValidationError("An uploaded archive cannot be read again: upload a new one.")
    snapshot, _ = _read(source=repository.source, path=repository.path, url=repository.url)
    with transaction.atomic():
        return _store(repository, snapshot)


def repository_activity_refresh(*, repository: Repository) -> Repository:
    """Before a debate on a GitHub repository: read its open issues and pull requests again, each
    request time-limited. Never raises: when GitHub cannot be reached the debate gets the ones
    read before (or none), and why is logged."""
    if repository.source != Repository.Source.GITHUB or not repository.url:
        return repository
    max_age = timedelta(seconds=settings.FAULTLINE_GITHUB_ACTIVITY_MAX_AGE_SECONDS)
    if repository.activity_read_at and timezone.now() - repository.activity_read_at < max_age:
        return repository
    try:
        issues, pulls = repositories.read_github_activity(
            repository.url,
            api_url=settings.FAULTLINE_GITHUB_API_URL,
            token=settings.GITHUB_TOKEN,
            timeout=settings.FAULTLINE_GITHUB_TIMEOUT_SECONDS,
        )
    except repositories.RepositoryUnreadable as exc:
        logger.warning("Open issues and pull requests of %s not read again: %s", repository.url, exc)
        return repository
    except Exception:  # a side step: whatever else goes wrong, the debate goes ahead without it
        logger.exception("Open issues and pull requests of %s not read again", repository.url)
        return repository
    repository.issues, repository.pull_requests, repository.activity_read_at = issues, pulls, timezone.now()
    repository.save(update_fields=["issues", "pull_requests", "activity_read_at"])
    return repository


# ── notes ──────────────────────────────────────────────────────────────────────────────────────


def tags_parse(text: str) -> list[str]:
    tags = [tag.strip().lower()[:40] for tag in (text or "").replace(",", " ").split()]
    return list(dict.fromkeys(tag for tag in tags if tag))[:NOTE_TAG_LIMIT]


def note_save(*, note: Note) -> Note:
    note.title = note.title.strip()[:200]
    if not note.title:
        raise ValidationError({"title": "Give the note a title."})
    if len(note.content or "") > MARKDOWN_MAX_CHARS:
        raise ValidationError({"content": NOTE_TOO_LONG})
    note.tags = list(dict.fromkeys(note.tags))[:NOTE_TAG_LIMIT]
    note.save()
    return note
