from decimal import Decimal

from django.db.models import Q, Sum

from gateways.llm.models import ModelCall


def debate_spend(*, debate_id) -> dict:
    """Cost and tokens of every model call of one debate so far, in one query (events carry it)."""
    totals = ModelCall.objects.filter(debate_id=debate_id).aggregate(
        cost=Sum("cost_usd"),
        input_tokens=Sum("input_tokens"),
        output_tokens=Sum("output_tokens"),
        cache_creation_tokens=Sum("cache_creation_tokens"),
        cache_read_tokens=Sum("cache_read_tokens"),
    )
    return {
        "cost": totals["cost"] or Decimal("0"),
        "input_tokens": totals["input_tokens"] or 0,
        "output_tokens": totals["output_tokens"] or 0,
        "cache_creation_tokens": totals["cache_creation_tokens"] or 0,
        "cache_read_tokens": totals["cache_read_tokens"] or 0,
    }


def spend_by_owner(*, user, since) -> Decimal:
    """Estimated cost of every model call made since ``since`` for the user's debates, deleted
    debates included."""
    calls = ModelCall.objects.filter(Q(debate__owner=user) | Q(owner_of_deleted_debate=user), created_at__gte=since)
    return calls.aggregate(cost=Sum("cost_usd"))["cost"] or Decimal("0")
