"""A crux card's predictions and atlas links, under the card wherever its owner sees it (the
debate page, results, summary). Renders nothing without a logged-in owner in the context: a
card pushed live to the debate's group, or shown on a shared page, carries none of it."""

from django import template

from atlas.models import Prediction
from crux.models import CruxCard

register = template.Library()


@register.inclusion_tag("atlas/partials/card_predictions.html", takes_context=True)
def card_predictions(context, card_id):
    request = context.get("request")
    user = getattr(request, "user", None)
    # A graph debate's cards are drawn from its map ("graph-D1"), not stored: they have no predictions.
    if user is None or not user.is_authenticated or not str(card_id or "").isdigit():
        return {"show": False}
    cards = context.render_context.setdefault(_CARDS, {})  # card id -> (debate id, predictions)
    if int(card_id) not in cards:
        _load_debate_of(int(card_id), user=user, into=cards)
    if cards.get(int(card_id)) is None:
        return {"show": False}
    debate_id, predictions = cards[int(card_id)]
    return {"show": True, "card_id": int(card_id), "debate_id": debate_id, "predictions": predictions}


_CARDS = "atlas_card_predictions"


def _load_debate_of(card_id: int, *, user, into: dict) -> None:
    """Every card of the debate ``card_id`` is in, with its predictions, at once: a results page
    draws all of them, so the rest need no query. None for a card that is not ``user``'s."""
    debate_id = CruxCard.objects.filter(pk=card_id, debate__owner=user).values_list("debate_id", flat=True).first()
    if debate_id is None:
        into[card_id] = None
        return
    card_ids = CruxCard.objects.filter(debate_id=debate_id).values_list("id", flat=True)
    into.update({card: (debate_id, []) for card in card_ids})
    for prediction in Prediction.objects.filter(card__debate_id=debate_id).select_related("persona"):
        into[prediction.card_id][1].append(prediction)
