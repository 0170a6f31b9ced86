"""Saving a finished debate's results to one of its owner's projects, as a note."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from debates.exports import debate_results_markdown
from debates.models import Debate
from debates.selectors import debate_view
from projects.models import Note, Project
from projects.services import note_save

TITLE_TOPIC_CHARS = 150


def debate_note_title(debate: Debate) -> str:
    topic = debate.topic if len(debate.topic) <= TITLE_TOPIC_CHARS else debate.topic[: TITLE_TOPIC_CHARS - 1] + "…"
    return f"Debate: {topic}"


def debate_note_save(*, debate: Debate, project: Project) -> Note:
    """A note in ``project`` holding the debate's results in Markdown, tagged debate + mode +
    context type, linked back to the debate. Both must be the same user's; the debate must have
    finished with results."""
    if debate.owner_id is None or project.owner_id != debate.owner_id:
        raise ValidationError({"project": "Save it to one of your own projects."})
    if debate.status not in (Debate.Status.COMPLETED, Debate.Status.STOPPED) or not debate.results:
        raise ValidationError("This debate has no results yet: save it to a project once it has finished.")
    view = debate_view(debate_id=debate.id)
    return note_save(
        note=Note(
            project=project,
            title=debate_note_title(debate),
            content=debate_results_markdown(debate=debate, view=view),
            tags=["debate", debate.mode, debate.context_type],
            debate=debate,
        )
    )
