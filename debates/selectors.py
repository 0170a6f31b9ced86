from __future__ import annotations

from django.db.models import Q, QuerySet

from debates.models import Debate, Event
from debates.state import DebateView, fold


def debate_events(*, debate_id, upto: int | None = None) -> list[tuple[int, str, dict]]:
    events = Event.objects.filter(debate_id=debate_id)
    if upto is not None:
        events = events.filter(seq__lte=upto)
    return list(events.order_by("seq").values_list("seq", "kind", "payload"))


def debate_view(*, debate_id, upto: int | None = None) -> DebateView:
    """The debate as a page shows it after event ``upto`` (all events when None)."""
    view = fold(debate_id, debate_events(debate_id=debate_id, upto=upto))
    # The mode is fixed when the debate is created, but its first event is written only once a
    # worker starts it: a page opened before then (or a replay at step 0) must already know it.
    view.mode = Debate.objects.values_list("mode", flat=True).get(pk=debate_id)
    return view


def debate_list_for(*, user, query: str = "") -> QuerySet[Debate]:
    debates = Debate.objects.filter(owner=user).prefetch_related("personas")
    if query:
        debates = debates.filter(Q(topic__icontains=query) | Q(personas__name__icontains=query)).distinct()
    return debates


def debate_visible_to(*, debate: Debate, user, share_token: str = "") -> bool:
    if user.is_authenticated and (debate.owner_id == user.id or user.is_staff):
        return True
    return bool(share_token) and debate.share_token == share_token
