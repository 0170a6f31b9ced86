import pytest

from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from orchestration.evaluation.harness import scenario_run
from orchestration.evaluation.judge import judge_summary
from orchestration.evaluation.scenarios import scenario

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_llm_judge_scores_each_card_and_is_reported_apart():
    """With Claude it is a real judgement; here the scripted model answers the judge's calls, which
    go through the gateway like any other (schema-validated)."""
    record = scenario_run(scenario("circling"), with_judge=True)

    assert len(record["judge"]) == len(record["cards"]) == 1
    assert record["judge"][0]["question"] == record["cards"][0]["question"]
    assert judge_summary([record]) == {"cards": 1, "real_crux": 4.0, "falsifiers_fit": 3.0}
    assert "judge" not in record["metrics"]  # opinions stay out of the ground-truth metrics


def test_the_judges_calls_go_through_one_message_batch_at_half_price():
    scenario_run(scenario("circling"), with_judge=True, keep=True)  # kept: its ledger rows stay

    judged = list(ModelCall.objects.filter(phase="evaluation_judge"))
    assert len(judged) == 1 and not judged[0].error
    row = judged[0]
    batch_price = estimate_cost(
        model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens, batched=True
    )
    assert (
        row.cost_usd
        == batch_price
        < estimate_cost(model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens)
    )
    # The debate itself is never batched: every other call of the run is at full price.
    for other in ModelCall.objects.exclude(phase="evaluation_judge").exclude(cost_usd=0):
        assert other.cost_usd == estimate_cost(
            model=other.model,
            input_tokens=other.input_tokens,
            output_tokens=other.output_tokens,
            cache_creation_tokens=other.cache_creation_tokens,
            cache_read_tokens=other.cache_read_tokens,
        )
