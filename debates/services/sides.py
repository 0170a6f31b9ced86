"""Taking a side: the owner or a member records YES, NO or NUANCED on a crux of the debate (its own
question, or a crux card as the results page numbers them) and, if they like, the one sentence that
would change their mind. A change adds a row (the history is kept); the open pages are told once
the row is committed, each rendering what its audience may see (debates/side_consumers.py).
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import transaction

from debates import broadcast
from debates.faultline_map import SIDES, crux_rows
from debates.models import Debate, PersonSide
from debates.selectors import debate_is_on_team, debate_view

MAX_BECAUSE = PersonSide._meta.get_field("because").max_length


def side_parse(raw: str) -> str:
    side = (raw or "").strip().upper()
    if side not in SIDES:
        raise ValidationError("A side is yes, no or nuanced.")
    return side


def because_clean(raw: str) -> str:
    """One sentence on one line: runs of white space (newlines too) become one space."""
    because = re.sub(r"\s+", " ", raw or "").strip()
    if len(because) > MAX_BECAUSE:
        raise ValidationError(f"What would change your mind fits in one sentence of at most {MAX_BECAUSE} characters.")
    return because


def side_take(*, debate: Debate, user, crux: int, side: str, because: str = "") -> PersonSide:
    """Records ``user``'s side on crux number ``crux`` (0: the debate's own question). Only the
    owner and the members take sides; a crux number the results page does not show, or a side
    other than yes/no/nuanced, is refused with ValidationError and nothing is written."""
    if not debate_is_on_team(debate=debate, user=user):
        raise ValidationError("Only the debate's owner and its members take sides on it.")
    side, because = side_parse(side), because_clean(because)
    rows = crux_rows(debate=debate, view=debate_view(debate_id=debate.id))
    row = next((row for row in rows if row.number == crux), None)
    if row is None:
        raise ValidationError(
            f"There is no crux {crux} on this debate: 0 is its question, 1 to {len(rows) - 1} its crux cards."
            if len(rows) > 1
            else f"There is no crux {crux} on this debate: it has no crux cards, only its question (0)."
        )
    with transaction.atomic():
        latest = (
            PersonSide.objects.filter(debate=debate, user=user, card_id=row.card_id)
            .order_by("-created_at", "-id")
            .first()
        )
        if latest is not None and (latest.side, latest.because) == (side, because):
            return latest  # said again: no new history
        recorded = PersonSide.objects.create(debate=debate, user=user, card_id=row.card_id, side=side, because=because)
        transaction.on_commit(lambda: broadcast.sides_changed(debate_id=debate.id))
    return recorded


def sides_forget(*, debate: Debate, user) -> int:
    """Deletes every side ``user`` took on the debate, their history with them; the open maps
    redraw once it is committed. How many rows went."""
    deleted, _ = PersonSide.objects.filter(debate=debate, user=user).delete()
    if deleted:
        transaction.on_commit(lambda: broadcast.sides_changed(debate_id=debate.id))
    return deleted
