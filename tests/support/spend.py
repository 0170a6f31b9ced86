"""What a debate's model calls cost, read from the call ledger, for tests that check the ledger."""

from decimal import Decimal

from django.db.models import Count, Sum

from gateways.llm.models import ModelCall


def debate_cost(*, debate_id) -> dict:
    """Totals of every model call of one debate: cost, tokens, calls, split by role."""
    calls = ModelCall.objects.filter(debate_id=debate_id)
    totals = calls.aggregate(
        cost=Sum("cost_usd"), input_tokens=Sum("input_tokens"), output_tokens=Sum("output_tokens"), calls=Count("id")
    )
    by_role = {
        row["role"]: {"cost": row["cost"] or Decimal("0"), "calls": row["calls"]}
        for row in calls.values("role").annotate(cost=Sum("cost_usd"), calls=Count("id"))
    }
    return {
        "cost": totals["cost"] or Decimal("0"),
        "input_tokens": totals["input_tokens"] or 0,
        "output_tokens": totals["output_tokens"] or 0,
        "calls": totals["calls"],
        "by_role": by_role,
    }
