"""A Collaborate run's artifact (one Markdown document): its file name, and saving it to one of
its owner's projects as a document."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError

from debates.models import Debate
from debates.modes import mode_find
from projects.models import Document, Project
from projects.services import document_write


def debate_artifact(debate: Debate) -> str:
    """The artifact's Markdown ("" while there is none: not a mode that writes one, or not finished)."""
    results = debate.results or {}
    spec = mode_find(results.get("mode"))
    return results.get("artifact", "") if spec is not None and spec.artifact else ""


def debate_artifact_filename(debate: Debate) -> str:
    title = (debate.results or {}).get("title") or debate.topic
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:60] or "artifact"
    return f"{slug}.md"


def debate_artifact_save(*, debate: Debate, project: Project) -> Document:
    """The artifact as a Markdown document in ``project``; both must be the same user's."""
    if debate.owner_id is None or project.owner_id != debate.owner_id:
        raise ValidationError({"project": "Save it to one of your own projects."})
    artifact = debate_artifact(debate)
    if not artifact:
        raise ValidationError("This collaboration has no artifact yet: save it once it is written.")
    title = (debate.results or {}).get("title") or debate.topic
    return document_write(project=project, title=title, text=artifact, filename=debate_artifact_filename(debate))
