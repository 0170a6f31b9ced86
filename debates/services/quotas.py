"""How much a user may run and spend: debates running at once, and a daily and a monthly cap on
the estimated model spend the ledger records for their debates.

The limits come from settings, raised or lowered per user by a UserQuota (editable in the admin);
staff are never limited, and neither is a debate with no owner (the operator's command line).
The checks run inside the transaction that queues the debate, with the user's row locked, so two
quick starts cannot both slip under the limit. A debate that started under a cap runs to its end:
the caps stop new starts and resumes, not a debate half-way.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Sum
from django.utils import timezone

from debates.models import Debate, Message, UserQuota
from debates.modes import mode_label
from gateways.llm import pricing
from gateways.llm.models import ModelCall
from gateways.llm.selectors import spend_by_owner

QUOTA_ERROR = "quota"


@dataclass(frozen=True)
class Limits:
    max_concurrent_debates: int  # 0: no limit
    daily_spend_usd: Decimal  # 0: no cap
    monthly_spend_usd: Decimal  # 0: no cap


def quota_limits_for(*, user) -> Limits | None:
    """The user's limits; None when they have none (staff)."""
    if user is None or user.is_staff or user.is_superuser:
        return None
    own = UserQuota.objects.filter(user=user).first()

    def pick(field: str, default):
        value = getattr(own, field, None) if own else None
        return default if value is None else value

    return Limits(
        max_concurrent_debates=pick("max_concurrent_debates", settings.FAULTLINE_MAX_CONCURRENT_DEBATES),
        daily_spend_usd=Decimal(pick("daily_spend_usd", settings.FAULTLINE_DAILY_SPEND_USD)),
        monthly_spend_usd=Decimal(pick("monthly_spend_usd", settings.FAULTLINE_MONTHLY_SPEND_USD)),
    )


def debates_running_for(*, user, excluding: Debate | None = None) -> int:
    """The user's debates that are queued or running, until each ends, whatever its age. Whether
    a worker holds one right now is recovery's question (what to queue again, when to offer
    Resume), never this one's: a debate queued behind a busy worker, or one whose worker died and
    that the sweep is about to pick up, still takes its place. ``excluding``: the debate being
    resumed, which does not count against its own resume."""
    unfinished = Debate.objects.filter(owner=user, status__in=[Debate.Status.PENDING, Debate.Status.RUNNING])
    if excluding is not None:
        unfinished = unfinished.exclude(pk=excluding.pk)
    return unfinished.count()


def _day_start(now: dt.datetime) -> dt.datetime:
    return timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)


def spend_today_and_month(*, user) -> tuple[Decimal, Decimal]:
    """What the user's debates have cost today and this month (UTC days), as the caps count it."""
    day_start = _day_start(timezone.now())
    return spend_by_owner(user=user, since=day_start), spend_by_owner(user=user, since=day_start.replace(day=1))


def quota_check_start(*, user, resuming: Debate | None = None) -> None:
    """Raise a ValidationError (code "quota") saying which limit a new start (or the resume of
    ``resuming``) would break. Call it inside the transaction that queues the debate."""
    limits = quota_limits_for(user=user)
    if limits is None:
        return
    # Serialise this user's starts: the count below must still hold when the debate is queued.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    what = "resume this debate" if resuming else "start a new one"

    if limits.max_concurrent_debates:
        running = debates_running_for(user=user, excluding=resuming)
        if running >= limits.max_concurrent_debates:
            raise ValidationError(
                f"You already have {running} debate{'s' if running != 1 else ''} running, and your limit is "
                f"{limits.max_concurrent_debates} at once. Stop one or wait for one to finish, then {what}.",
                code=QUOTA_ERROR,
            )

    day_start = _day_start(timezone.now())
    for cap, since, period, again in (
        (limits.daily_spend_usd, day_start, "today", "tomorrow (UTC)"),
        (limits.monthly_spend_usd, day_start.replace(day=1), "this month", "next month"),
    ):
        if not cap:
            continue
        spent = spend_by_owner(user=user, since=since)
        if spent >= cap:
            raise ValidationError(
                f"You have used your model budget for {period}: ${spent:.2f} of ${cap:.2f} (estimated). "
                f"You can {what} {again}, or ask the operator to raise your limit.",
                code=QUOTA_ERROR,
            )


# ── Cost estimate before a debate starts ──────────────────────────────────────────────────────

# Without history, a message is priced from the model price table: a persona turn reads a
# budgeted context and writes a few sentences, and the side work each message sets off (ledger
# update, disagreement detection, crux rooms) costs about as much again.
ASSUMED_INPUT_TOKENS = 3000
ASSUMED_OUTPUT_TOKENS = 300
SIDE_WORK_FACTOR = 2
# What one message of a Standard debate of each mode costs, side work and prompt caching included,
# on the default Claude models: measured by benchmarks/cost.py (benchmarks/README.md, "Cost per
# debate"; dollars / persona turns). The estimate before the ledger holds debates of the mode.
MEASURED_PERSONA_MODEL = "claude-sonnet-5-5"
MEASURED_PER_MESSAGE = {
    "dialogue": Decimal("0.0045"),
    "graph": Decimal("0.0057"),
    "analyst_critic": Decimal("0.0038"),
    "collaborate": Decimal("0.0046"),
}


@dataclass(frozen=True)
class CostEstimate:
    per_message: Decimal
    basis: str  # how the figure was reached, in a phrase said next to it ("an estimate from ...")

    def for_debate(self, *, hand: int, max_turns: int) -> Decimal:
        # an opening and a closing per persona, and the dialogue turns between them
        return self.per_message * (2 * hand + max_turns)


def average_cost_per_message(*, provider: str, mode: str | None = None, recent_debates: int = 50) -> Decimal | None:
    """What one message has cost on average, side work included, over the provider's recent
    debates (of ``mode``, when given) that cost anything; None without such history."""
    costly = ModelCall.objects.filter(debate=OuterRef("pk"), cost_usd__gt=0)
    debates = Debate.objects.filter(provider=provider)
    if mode:
        debates = debates.filter(mode=mode)
    debates = list(debates.filter(Exists(costly)).order_by("-created_at").values_list("id", flat=True)[:recent_debates])
    messages = Message.objects.filter(debate_id__in=debates).count()
    if not messages:
        return None
    cost = ModelCall.objects.filter(debate_id__in=debates).aggregate(cost=Sum("cost_usd"))["cost"]
    return (cost or Decimal("0")) / messages


def debate_cost_estimate(*, provider: str | None = None, mode: str | None = None) -> CostEstimate:
    """One message's estimated cost: from the ledger's recent debates (of ``mode``), else from the
    measured figure of the mode on the default models, else from the persona model's list prices."""
    provider = provider or settings.FAULTLINE_LLM
    if provider == "local":
        return CostEstimate(per_message=Decimal("0"), basis="the offline demo model costs nothing")
    average = average_cost_per_message(provider=provider, mode=mode)
    if average is not None:
        return CostEstimate(
            per_message=average,
            basis="an estimate from the average cost per message of recent debates" + (" in this mode" if mode else ""),
        )
    model = settings.FAULTLINE_MODELS[provider]["persona"]
    if provider == "anthropic" and model == MEASURED_PERSONA_MODEL and mode in MEASURED_PER_MESSAGE:
        return CostEstimate(
            per_message=MEASURED_PER_MESSAGE[mode],
            basis=f"an estimate from what a message cost in a measured test debate in the “{mode_label(mode)}” "
            f"mode on {model}",
        )
    per_call = pricing.estimate_cost(
        model=model, input_tokens=ASSUMED_INPUT_TOKENS, output_tokens=ASSUMED_OUTPUT_TOKENS
    )
    return CostEstimate(
        per_message=per_call * SIDE_WORK_FACTOR,
        basis=f"an estimate from {model}'s list prices, for a message of typical length",
    )
