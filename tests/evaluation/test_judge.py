import pytest

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
