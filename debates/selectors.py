from __future__ import annotations

from django.db.models import F, OuterRef, Q, QuerySet, Subquery, Sum

from debates.models import Debate, DebateMember, Event
from debates.state import DebateView, fold
from gateways.llm.models import ModelCall


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
    view.mode, max_turns = Debate.objects.values_list("mode", "max_turns").get(pk=debate_id)
    view.max_turns = view.max_turns or max_turns  # its budget too: "0 / 12", not "0"
    return view


def _calls_sum(expression) -> Subquery:
    """One sum over a debate's model calls, as a subquery (a join would count a debate's calls
    once per persona matched by the archive's search)."""
    calls = ModelCall.objects.filter(debate=OuterRef("pk")).order_by().values("debate")
    return Subquery(calls.annotate(total=Sum(expression)).values("total")[:1])


def debate_list_for(*, user, query: str = "") -> QuerySet[Debate]:
    """The owner's debates, each with its spend: ``spend_usd`` and ``cached_percent`` (of its
    input tokens, the part read from the prompt cache), None for a debate that called no model."""
    debates = (
        Debate.objects.filter(owner=user)
        .prefetch_related("personas")
        .annotate(
            spend_usd=_calls_sum("cost_usd"),
            input_all=_calls_sum(F("input_tokens") + F("cache_creation_tokens") + F("cache_read_tokens")),
            cache_read=_calls_sum("cache_read_tokens"),
        )
    )
    if query:
        debates = debates.filter(Q(topic__icontains=query) | Q(personas__name__icontains=query)).distinct()
    return debates


VIEW_ANY_DEBATE = "debates.view_any_debate"


def debate_visible_to(*, debate: Debate, user, share_token: str = "") -> bool:
    """The owner, the debate's members, anyone given the permission to watch every debate
    (superusers have it), and anyone holding the debate's share token. Being staff alone is not
    enough."""
    if user.is_authenticated and (debate_is_on_team(debate=debate, user=user) or user.has_perm(VIEW_ANY_DEBATE)):
        return True
    return bool(share_token) and debate.share_token == share_token


def debate_sees_spend(*, debate: Debate, user) -> bool:
    """What a debate spent (tokens, cost) is its owner's, and the moderators' who watch every
    debate; members and share-link viewers do not see it."""
    return user.is_authenticated and (debate.owner_id == user.id or user.has_perm(VIEW_ANY_DEBATE))


def debate_is_on_team(*, debate: Debate, user) -> bool:
    """The owner or one of the members the owner invited: who may take sides and see names."""
    if not user.is_authenticated:
        return False
    return debate.owner_id == user.id or DebateMember.objects.filter(debate=debate, user=user).exists()


def debate_members(*, debate: Debate) -> QuerySet[DebateMember]:
    return DebateMember.objects.filter(debate=debate).select_related("user")


def debate_list_shared_with(*, user) -> QuerySet[Debate]:
    """The debates other people invited this user to, newest first."""
    return Debate.objects.filter(members__user=user).select_related("owner")
