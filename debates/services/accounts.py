"""Deleting an account with everything that is its own: its debates (and all they produced, the
sides members took on them included), its personas, decks, projects and memory, its model-call
ledger, its memberships of other people's debates and the sides it took there. Other people's
debates stay as they were, without this person's sides."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from debates import broadcast
from debates.models import Debate
from debates.services.lifecycle import debate_is_orphaned
from gateways.llm.models import ModelCall


def account_delete(*, user) -> None:
    """Refused while one of the user's debates is still running (its orchestrator would go on
    writing into rows that are gone): stop it first, as for deleting one debate."""
    owned = list(Debate.objects.filter(owner=user))
    running = [
        debate
        for debate in owned
        if debate.status in (Debate.Status.PENDING, Debate.Status.RUNNING) and not debate_is_orphaned(debate=debate)
    ]
    if running:
        raise ValidationError(
            f"{len(running)} of your debates {'is' if len(running) == 1 else 'are'} still running: "
            "stop them, wait until they say they have stopped, then delete your account."
        )
    watched = [debate.id for debate in owned] + list(user.debate_memberships.values_list("debate_id", flat=True))
    with transaction.atomic():
        # The debates' model calls were billed to this user: they go with the account, not stay
        # behind as nobody's.
        ModelCall.objects.filter(debate__owner=user).update(owner_of_deleted_debate=user)
        user.delete()
        for debate_id in watched:  # open pages of these debates check their access again
            transaction.on_commit(lambda debate_id=debate_id: broadcast.access_changed(debate_id=debate_id))
            transaction.on_commit(lambda debate_id=debate_id: broadcast.sides_changed(debate_id=debate_id))
