"""The one way model prompts quote a stretch of debate: one "[turn N] Name: text" line per message
(gateways/llm/prompt_lines.py), and the participants as "[persona-id] Name" lines."""

from collections.abc import Iterable

from debates.models import Message
from gateways.llm.prompt_lines import item_line, said_line


def transcript_of(messages: Iterable[Message]) -> str:
    """Transcript lines in the order given; callers select_related("persona") to avoid a query per line."""
    return "\n".join(said_line(message.turn, message.persona.name, message.text) for message in messages)


def seated_lines(names: dict[int, str], handles: dict[int, str]) -> str:
    """The participants' lines from persona pk -> name (in seat order) and pk -> persona id."""
    return "\n".join(item_line(handles[pk], name) for pk, name in names.items())


def seat_handles(debate) -> dict[int, str]:
    """persona pk -> persona id of ``debate``'s participants, in seat order (one query)."""
    return dict(debate.participants.order_by("seat").values_list("persona_id", "persona__persona_id"))


def participant_lines(personas: Iterable, *, you=None) -> str:
    """One "[persona-id] Name" line per persona (in the order given: seat order), " (you)" after
    the name of ``you``, the one the prompt is for."""
    return "\n".join(
        item_line(persona.persona_id, persona.name + (" (you)" if you is not None and persona.pk == you.pk else ""))
        for persona in personas
    )
