"""Per-user limits: debates running at once and the daily/monthly spend read from the ledger,
enforced where a debate is started (the setup page) and resumed."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from debates.models import Debate, Participant, UserQuota
from debates.services import lifecycle, quotas
from gateways.llm.models import ModelCall

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch):
    """What debate_start hands to the worker (lifecycle.run_enqueue, recorded)."""
    calls = []
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: calls.append(str(debate_id)))
    return calls


def start_form(deck, personas, topic="Is gold obsolete?"):
    return {
        "deck": deck.pk,
        "personas": [personas[0].pk, personas[1].pk],
        "topic": topic,
        "length": "short",
        "mode": "dialogue",
    }


def spend(debate, usd: str, *, at=None) -> ModelCall:
    call = ModelCall.objects.create(
        debate=debate,
        role="persona",
        provider="anthropic",
        model="claude-sonnet-5-5",
        input_tokens=1000,
        output_tokens=100,
        cost_usd=Decimal(usd),
    )
    if at is not None:
        ModelCall.objects.filter(pk=call.pk).update(created_at=at)
    return call


def test_the_fourth_concurrent_debate_is_refused_with_a_message_and_nothing_queued(
    owner_client, user, deck, personas, queued, settings
):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 3
    for number in range(3):
        response = owner_client.post("/debates/new/", start_form(deck, personas, f"Debate {number}"))
        assert response.status_code == 302
    assert len(queued) == 3

    response = owner_client.post("/debates/new/", start_form(deck, personas, "One too many"))

    content = response.content.decode()
    assert response.status_code == 200
    assert "You already have 3 debates running, and your limit is 3 at once." in content
    assert 'role="alert"' in content
    assert len(queued) == 3, "nothing more was queued"
    assert not Debate.objects.filter(topic="One too many").exists()
    assert Debate.objects.count() == 3 and Participant.objects.count() == 6


def test_a_finished_debate_frees_its_place(user, deck, personas, queued, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    first = lifecycle.debate_start(owner=user, topic="First", personas=personas[:2], deck=deck)
    with pytest.raises(ValidationError):
        lifecycle.debate_start(owner=user, topic="Second", personas=personas[:2], deck=deck)

    Debate.objects.filter(pk=first.pk).update(status=Debate.Status.COMPLETED)

    lifecycle.debate_start(owner=user, topic="Second", personas=personas[:2], deck=deck)
    assert len(queued) == 2


def test_a_debate_whose_worker_died_holds_its_place_but_may_be_resumed(user, deck, personas, queued, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    orphan = lifecycle.debate_start(owner=user, topic="Orphan", personas=personas[:2], deck=deck)
    Debate.objects.filter(pk=orphan.pk).update(status=Debate.Status.RUNNING)  # no orchestrator holds it

    with pytest.raises(ValidationError, match="You already have 1 debate running"):
        lifecycle.debate_start(owner=user, topic="Next", personas=personas[:2], deck=deck)
    orphan.refresh_from_db()
    lifecycle.debate_resume(debate=orphan)  # its own resume does not count against it
    assert len(queued) == 2


def test_a_spent_daily_cap_refuses_a_new_debate(owner_client, user, deck, personas, make_debate, queued, settings):
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("2")
    earlier = make_debate()
    Debate.objects.filter(pk=earlier.pk).update(status=Debate.Status.COMPLETED)
    spend(earlier, "1.25")
    spend(earlier, "0.80")

    response = owner_client.post("/debates/new/", start_form(deck, personas, "Over budget"))

    content = response.content.decode()
    assert "You have used your model budget for today: $2.05 of $2.00 (estimated)." in content
    assert "tomorrow (UTC)" in content
    assert queued == []
    assert not Debate.objects.filter(topic="Over budget").exists()


def test_yesterdays_spend_does_not_count_against_today_but_does_against_the_month(
    user, deck, personas, make_debate, queued, settings
):
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("2")
    settings.FAULTLINE_MONTHLY_SPEND_USD = Decimal("3")
    earlier = make_debate()
    Debate.objects.filter(pk=earlier.pk).update(status=Debate.Status.COMPLETED)
    now = timezone.now()
    month_start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    spend(earlier, "2.50", at=max(month_start, now - dt.timedelta(days=1)))

    if month_start.date() == now.date():  # the first of the month: yesterday was last month
        lifecycle.debate_start(owner=user, topic="Fresh month", personas=personas[:2], deck=deck)
        assert len(queued) == 1
        return
    lifecycle.debate_start(owner=user, topic="Still in budget today", personas=personas[:2], deck=deck)
    spend(earlier, "0.60")
    with pytest.raises(ValidationError, match=r"model budget for this month: \$3.10 of \$3.00"):
        lifecycle.debate_start(owner=user, topic="Over the month", personas=personas[:2], deck=deck)
    assert len(queued) == 1


def test_deleting_a_debate_gives_back_no_spend(user, deck, personas, make_debate, queued, settings):
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("1")
    earlier = make_debate()
    Debate.objects.filter(pk=earlier.pk).update(status=Debate.Status.COMPLETED)
    earlier.refresh_from_db()
    spend(earlier, "1.50")

    lifecycle.debate_delete(debate=earlier)

    assert ModelCall.objects.get().owner_of_deleted_debate == user
    with pytest.raises(ValidationError, match="model budget for today"):
        lifecycle.debate_start(owner=user, topic="After deleting", personas=personas[:2], deck=deck)


def test_a_spent_cap_refuses_a_resume(owner_client, debate, log, queued, settings):
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("1")
    log.start()
    log.fail("The provider was down.")
    spend(debate, "1.00")

    response = owner_client.post(f"/debates/{debate.id}/resume/", follow=True)

    assert "You have used your model budget for today" in response.content.decode()
    assert queued == []


def test_the_resumed_debate_does_not_count_against_itself(user, debate, log, queued, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    log.start()
    log.fail("The provider was down.")
    debate.refresh_from_db()

    lifecycle.debate_resume(debate=debate)

    assert queued == [str(debate.id)]


def test_a_user_quota_raises_the_limits_for_one_user(user, deck, personas, make_debate, queued, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("1")
    earlier = make_debate()
    spend(earlier, "3")
    UserQuota.objects.create(user=user, max_concurrent_debates=5, daily_spend_usd=Decimal("10"))

    lifecycle.debate_start(owner=user, topic="Raised", personas=personas[:2], deck=deck)

    assert len(queued) == 1


def test_staff_are_not_limited(deck, personas, queued, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    settings.FAULTLINE_DAILY_SPEND_USD = Decimal("0.01")
    operator = get_user_model().objects.create_user("operator", password="x", is_staff=True)
    for number in range(3):
        debate = lifecycle.debate_start(owner=operator, topic=f"Staff {number}", personas=personas[:2], deck=deck)
        spend(debate, "1")

    assert len(queued) == 3


def test_the_setup_page_shows_a_labelled_cost_estimate_from_the_price_table(owner_client, deck, settings):
    settings.FAULTLINE_LLM = "anthropic"
    models = {**settings.FAULTLINE_MODELS, "anthropic": {**settings.FAULTLINE_MODELS["anthropic"]}}
    models["anthropic"]["persona"] = "claude-sonnet-5-0"  # a model no measured figure is for
    settings.FAULTLINE_MODELS = models

    content = owner_client.get("/debates/new/").content.decode()

    # Standard length (30 turns) and the smallest hand (2): 34 messages at 2 x sonnet list price
    # for 3000 tokens in, 300 out ($0.0135).
    assert 'Estimated cost: <strong class="cost-estimate-value">$0.92</strong>' in content
    assert "an estimate from claude-sonnet-5-0&#x27;s list prices" in content
    assert "Your limits: 3 debates at once, $5.00 a day, $50.00 a month." in content


def test_on_the_default_models_the_estimate_is_the_measured_figure_of_each_mode(owner_client, deck, settings):
    settings.FAULTLINE_LLM = "anthropic"

    content = owner_client.get("/debates/new/").content.decode()
    graph = owner_client.get("/debates/new/", {"mode": "graph"}).content.decode()

    # 34 messages of a Standard dialogue at its measured $0.0045 (benchmarks/cost.py)
    assert 'Estimated cost: <strong class="cost-estimate-value">$0.15</strong>' in content
    assert "a measured test debate in the “Dialogue with crux rooms” mode on claude-sonnet-5-5" in content
    for mode, per_message in quotas.MEASURED_PER_MESSAGE.items():
        assert f'data-per-message-{mode}="{per_message}"' in content  # estimate.js picks by the mode chosen
    assert "“Argumentation graph” mode" in graph and "$0.19" in graph  # 34 x $0.0057


def test_the_estimate_learns_from_the_ledger(user, make_debate, log, personas, settings):
    settings.FAULTLINE_LLM = "anthropic"
    past = make_debate()
    Debate.objects.filter(pk=past.pk).update(provider="anthropic")
    from tests.debates.log_builder import DebateLog

    past_log = DebateLog(past).start()
    for index in range(4):
        past_log.say(personas[index % 2], f"Point {index}.")
    spend(past, "0.30")
    spend(past, "0.10")

    estimate = quotas.debate_cost_estimate()

    assert estimate.per_message == Decimal("0.1")
    assert "average cost per message" in estimate.basis
    assert estimate.for_debate(hand=3, max_turns=12) == Decimal("1.8")


def test_the_offline_model_is_estimated_free(owner_client, deck, settings):
    settings.FAULTLINE_LLM = "local"

    content = owner_client.get("/debates/new/").content.decode()

    assert "$0.00" in content and "the offline demo model costs nothing" in content


def test_a_running_debate_held_by_a_worker_holds_its_place(user, debate, log, deck, personas, queued, settings):
    from debates.services.leases import debate_lease

    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    log.start()
    with debate_lease(debate.id), pytest.raises(ValidationError, match="You already have 1 debate running"):
        lifecycle.debate_start(owner=user, topic="Second", personas=personas[:2], deck=deck)
    assert queued == []
