"""What the debate commands share: the debate a command may act on for its user."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError

from debates.models import Debate


def cli_debate(debate_id: str, *, user) -> Debate:
    """The user's own debate ``debate_id``. A debate of anyone else gets the same one line as one
    that does not exist (as the site's 404), so a command does not reveal that it exists."""
    try:
        debate = Debate.objects.filter(pk=debate_id, owner=user).first()
    except ValidationError:  # not a debate id at all
        debate = None
    if debate is None:
        raise CommandError(f"no debate with id {debate_id} (for user {user.username})")
    return debate
