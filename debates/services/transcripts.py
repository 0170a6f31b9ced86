"""The one way model prompts quote a stretch of debate: one "Name: text" line per message."""

from collections.abc import Iterable

from debates.models import Message


def transcript_of(messages: Iterable[Message]) -> str:
    """Speaker-prefixed lines in the order given; callers select_related("persona") to avoid a query per line."""
    return "\n".join(f"{message.persona.name}: {message.text}" for message in messages)
