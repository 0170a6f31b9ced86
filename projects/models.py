"""A user's own material: projects, their assignments, documents, repositories and notes.

Everything here is private to the project's owner. A layer below `debates`: a note may link back
to the debate it came from (by the model's name, never by importing debates), and a debate may
take a project, an assignment or a repository as its context.
"""

from django.conf import settings
from django.db import models


class Project(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"
        DONE = "done", "Done"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="projects")
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    goals = models.TextField(blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="unique_project_name_per_owner")]

    def __str__(self):
        return self.name


class Assignment(models.Model):
    class Status(models.TextChoices):
        TODO = "todo", "To do"
        IN_PROGRESS = "in_progress", "In progress"
        DONE = "done", "Done"

    class Priority(models.TextChoices):
        LOW = "low", "Low"
        MEDIUM = "medium", "Medium"
        HIGH = "high", "High"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="assignments")
    name = models.CharField(max_length=120)
    brief = models.TextField(blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.TODO)
    priority = models.CharField(max_length=20, choices=Priority.choices, default=Priority.MEDIUM)
    # [{"text": "Write the outline", "done": false}, ...]
    checklist = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["project", "name"], name="unique_assignment_name_per_project")]

    def __str__(self):
        return self.name


class Document(models.Model):
    """An uploaded file, kept as the text read from it. The file itself is kept only until a worker
    has read it (reading → ready, or refused saying why)."""

    class Kind(models.TextChoices):
        MARKDOWN = "md", "Markdown"
        TEXT = "txt", "Plain text"
        PDF = "pdf", "PDF"
        HTML = "html", "HTML (as text)"

    class Status(models.TextChoices):
        READING = "reading", "Reading"
        READY = "ready", "Ready"
        REFUSED = "refused", "Refused"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="documents")
    title = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    filename = models.CharField(max_length=255)
    size = models.PositiveIntegerField(help_text="Bytes uploaded.")
    text = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    refusal = models.CharField(max_length=500, blank=True, help_text="Why the file could not be read.")
    # The uploaded bytes, until a worker has read them (never parsed in the web process).
    upload = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.title

    @property
    def is_markdown(self) -> bool:
        return self.kind == self.Kind.MARKDOWN


class Repository(models.Model):
    """A code repository read once when attached (and again on refresh): what a debate needs to
    know about it, not the code itself. An uploaded archive is kept only until a worker has read
    it (reading → ready, or refused saying why); the other sources are read at once."""

    class Source(models.TextChoices):
        LOCAL = "local", "Local git repository"
        ARCHIVE = "archive", "Uploaded archive"
        GITHUB = "github", "GitHub"

    class Status(models.TextChoices):
        READING = "reading", "Reading"
        READY = "ready", "Ready"
        REFUSED = "refused", "Refused"

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="repositories")
    name = models.CharField(max_length=200)
    source = models.CharField(max_length=20, choices=Source.choices)
    path = models.CharField(max_length=500, blank=True, help_text="A local repository's folder.")
    url = models.URLField(blank=True, help_text="A GitHub repository's address.")
    readme = models.TextField(blank=True)
    tree = models.JSONField(default=list, blank=True)  # up to 50 paths
    languages = models.JSONField(default=list, blank=True)  # [{"name": "Python", "files": 12}, ...]
    commits = models.JSONField(default=list, blank=True)  # [{"sha", "date", "author", "subject"}, ...]
    branches = models.JSONField(default=list, blank=True)  # a local clone's: [{"name", "current"}, ...]
    # A GitHub repository's open issues and pull requests, as plain bounded text (projects/repositories.py):
    # [{"number", "title", "state", "labels", "draft", "author", "updated", "excerpt"}, ...]
    issues = models.JSONField(default=list, blank=True)
    pull_requests = models.JSONField(default=list, blank=True)
    # When the issues and pull requests were last read (each debate on the repository reads them again).
    activity_read_at = models.DateTimeField(null=True, blank=True)
    # What could not be read (the GitHub API unreachable, no git...), shown next to what could.
    read_note = models.CharField(max_length=300, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.READY)
    refusal = models.CharField(max_length=500, blank=True, help_text="Why the archive could not be read.")
    filename = models.CharField(max_length=255, blank=True, help_text="An uploaded archive's file name.")
    # An uploaded archive's bytes, until a worker has read them (never in the web process).
    upload = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "repositories"

    def __str__(self):
        return self.name


class Note(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="notes")
    title = models.CharField(max_length=200)
    content = models.TextField(blank=True, help_text="Markdown.")
    tags = models.JSONField(default=list, blank=True)
    # The debate a note was saved from; by name, not by import (debates is the layer above).
    debate = models.ForeignKey(
        "debates.Debate", null=True, blank=True, on_delete=models.SET_NULL, related_name="project_notes"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self):
        return self.title
