import pytest

from orchestration.evaluation.harness import scenario_run
from orchestration.evaluation.scenarios import talking_past

pytestmark = pytest.mark.django_db(transaction=True)


def test_contradicting_stances_with_no_crux_card_are_not_a_consensus(settings):
    """The failure that killed an earlier engine: no room opened, so nothing contradicted the
    "consensus" of an empty card list. Here the detector never gets the windows it needs."""
    settings.CRUX_MIN_CONSECUTIVE_WINDOWS = 99

    record = scenario_run(talking_past(0))

    assert record["status"] == "completed" and record["cards"] == []
    assert record["final_sides"] == {"Hal Prices": "YES", "Ivy Assets": "NO"}
    assert record["metrics"]["regime"] == "disagreement_no_crux"
    assert "no crux card" in record["regime_basis"] and "Hal Prices YES, Ivy Assets NO" in record["regime_basis"]
