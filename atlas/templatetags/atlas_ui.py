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
    card = CruxCard.objects.filter(pk=card_id, debate__owner=user).only("id", "debate_id").first()
    if card is None:
        return {"show": False}
    predictions = Prediction.objects.filter(card=card).select_related("persona")
    return {"show": True, "card_id": card.id, "debate_id": card.debate_id, "predictions": list(predictions)}
