"""Saving a finished debate's results to one of its owner's projects, as a note."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from debates.exports import crux_card_markdown, debate_results_markdown
from debates.models import Debate
from debates.regime import verdict_sentence
from debates.selectors import debate_view
from projects.models import Note, Project
from projects.services import note_save

TITLE_TOPIC_CHARS = 150


def debate_note_title(debate: Debate) -> str:
    topic = debate.topic if len(debate.topic) <= TITLE_TOPIC_CHARS else debate.topic[: TITLE_TOPIC_CHARS - 1] + "…"
    return f"Debate: {topic}"


def _check_owner(debate: Debate, project: Project) -> None:
    if debate.owner_id is None or project.owner_id != debate.owner_id:
        raise ValidationError({"project": "Save it to one of your own projects."})


def debate_card_note_save(*, debate: Debate, project: Project, card_id) -> Note:
    """A note in ``project`` holding one crux card of the debate (a card is final once dealt, so
    this works while the debate still runs), tagged crux + mode + context type."""
    _check_owner(debate, project)
    card = next((c for c in debate_view(debate_id=debate.id).cards if str(c.id) == str(card_id)), None)
    if card is None:
        raise ValidationError("That crux card is not part of this debate.")
    title = card.question if len(card.question) <= TITLE_TOPIC_CHARS else card.question[: TITLE_TOPIC_CHARS - 1] + "…"
    return note_save(
        note=Note(
            project=project,
            title=f"Crux: {title}",
            content=crux_card_markdown(debate=debate, card=card),
            tags=["crux", debate.mode, debate.context_type],
            debate=debate,
        )
    )


def debate_note_save(*, debate: Debate, project: Project) -> Note:
    """A note in ``project`` holding the debate's results in Markdown, tagged debate + mode +
    context type, linked back to the debate. Both must be the same user's; the debate must have
    finished with results."""
    _check_owner(debate, project)
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


def debate_synthesis_markdown(*, debate: Debate) -> str:
    """An Analyst/Critic debate's final synthesis, with the points it rests on, in Markdown."""
    results = debate.results or {}
    lines = [f"# {debate.topic}", "", results.get("synthesis", "").strip()]
    # The one verdict sentence (debates/regime.py): the score, the verdict and how the rounds ended.
    if sentence := verdict_sentence(results=results, status=debate.status):
        lines += ["", f"Where it landed: {sentence}"]
    for title, key in (("Agreed", "agreed"), ("Still contested", "contested"), ("Unverifiable", "unverifiable")):
        if results.get(key):
            lines += ["", f"## {title}", *[f"- {point}" for point in results[key]]]
    return "\n".join(lines) + "\n"


def debate_synthesis_note_save(*, debate: Debate, project: Project) -> Note:
    """A note in ``project`` holding an Analyst/Critic debate's final synthesis (its Save to project),
    tagged synthesis + mode + context type, linked back to the debate."""
    _check_owner(debate, project)
    if not (debate.results or {}).get("synthesis"):
        raise ValidationError("This debate has no synthesis yet: save it once the synthesis is written.")
    topic = debate.topic if len(debate.topic) <= TITLE_TOPIC_CHARS else debate.topic[: TITLE_TOPIC_CHARS - 1] + "…"
    return note_save(
        note=Note(
            project=project,
            title=f"Synthesis: {topic}",
            content=debate_synthesis_markdown(debate=debate),
            tags=["synthesis", debate.mode, debate.context_type],
            debate=debate,
        )
    )
