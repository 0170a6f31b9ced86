"""Re-run with a swap: the setup page's fields for a new debate on the same topic as ``debate``
with one persona swapped for another, and a link back to it (Debate.rerun_of, stored when the
owner starts it)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.urls import reverse

from debates.models import Debate
from debates.services.context import context_value
from personas.models import Persona
from personas.selectors import persona_is_visible_to


def rerun_setup_url(*, debate: Debate, swap_out: Persona | None, swap_in: Persona | None, user, topic: str = "") -> str:
    """The setup page, prefilled: the debate's topic (or ``topic``, for the same hand on a related
    crux), mode, length, context and deck, its hand with ``swap_out`` replaced by ``swap_in`` (both None: the same
    hand), and rerun_of."""
    hand = list(debate.participants.values_list("persona_id", flat=True))
    if swap_out is None or swap_in is None:
        if topic.strip() in ("", debate.topic):
            raise ValidationError("Swap a persona, or ask about a related crux: else it is the same debate again.")
        swap_out = swap_in = Persona.objects.get(pk=hand[0])
    if swap_out.pk not in hand:
        raise ValidationError({"swap_out": "Pick a persona who took part in the debate."})
    if swap_in.pk in hand and swap_in.pk != swap_out.pk:
        raise ValidationError({"swap_in": "That persona is in the hand already."})
    if not persona_is_visible_to(persona=swap_in, user=user):
        raise ValidationError({"swap_in": "Pick personas from the seed decks or your own."})
    personas = [swap_in.pk if persona_id == swap_out.pk else persona_id for persona_id in hand]
    params = [
        ("topic", topic.strip() or debate.topic),
        ("mode", debate.mode),
        ("length", debate.length),
        ("rerun_of", str(debate.pk)),
    ]
    if value := context_value(debate=debate):
        params.append(("context", value))  # the same project, assignment or repository
    if debate.deck_id:
        params.append(("deck", debate.deck_id))
    params += [("personas", persona_id) for persona_id in personas]
    return f"{reverse('debate_new')}?{urlencode(params)}"
