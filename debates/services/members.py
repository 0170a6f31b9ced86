"""The people a debate's owner decides with: members invited by a single-use link or by user name.

A member reads the debate and takes sides on it (debates/services/sides.py); only the owner invites
and removes. Removing someone closes their open pages at once (the sockets check their access
again) and gives them the same 404 as anyone else from then on.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from debates import broadcast
from debates.models import Debate, DebateInvite, DebateMember

INVITE_REFUSED = "This invite link does not work: it was used already, or never existed."


def debate_invite_link_create(*, debate: Debate) -> str:
    """A new single-use invite for the debate: the token its link carries."""
    return DebateInvite.objects.create(debate=debate, token=secrets.token_urlsafe(24)).token


def debate_invite_accept(*, token: str, user) -> Debate:
    """Makes ``user`` a member through the invite ``token``. The first to accept it takes it; the
    owner, or someone already a member, opening it again keeps it unused for someone else. Anyone
    else gets ValidationError, the same for a used link and one that never existed."""
    with transaction.atomic():
        invite = DebateInvite.objects.select_for_update().select_related("debate").filter(token=token).first()
        if invite is None:
            raise ValidationError(INVITE_REFUSED)
        debate = invite.debate
        if debate.owner_id == user.id or invite.accepted_by_id == user.id:
            return debate
        if DebateMember.objects.filter(debate=debate, user=user).exists():
            return debate
        if invite.accepted_by_id is not None:
            raise ValidationError(INVITE_REFUSED)
        invite.accepted_by = user
        invite.accepted_at = timezone.now()
        invite.save(update_fields=["accepted_by", "accepted_at"])
        DebateMember.objects.create(debate=debate, user=user)
    return debate


def debate_member_add(*, debate: Debate, username: str) -> None:
    """Adds the user called ``username`` as a member, if there is one. Says nothing either way, so
    the answer does not tell the owner which names have accounts."""
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None or user.id == debate.owner_id:
        return
    try:
        with transaction.atomic():
            DebateMember.objects.get_or_create(debate=debate, user=user)
    except IntegrityError:  # added at the same moment by another request: a member either way
        pass


def debate_member_remove(*, debate: Debate, user_id: int) -> bool:
    """Removes the member; their open pages are disconnected once this commits. False: no such member."""
    removed, _ = DebateMember.objects.filter(debate=debate, user_id=user_id).delete()
    if removed:
        transaction.on_commit(lambda: broadcast.access_changed(debate_id=debate.id))
    return bool(removed)
