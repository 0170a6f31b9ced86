import pytest

from debates.exports import debate_markdown
from debates.models import Debate
from debates.selectors import debate_view
from orchestration.evaluation.harness import scenario_run
from orchestration.evaluation.scenarios import scenario

pytestmark = pytest.mark.django_db(transaction=True)


def test_contradicting_stances_with_no_crux_card_are_not_a_consensus(settings):
    """The failure that killed an earlier engine: no room opened, so nothing contradicted the
    "consensus" of an empty card list. Here the detector never gets the windows it needs."""
    settings.CRUX_MIN_CONSECUTIVE_WINDOWS = 99

    record = scenario_run(scenario("talking_past"), keep=True)

    assert record["status"] == "completed" and record["cards"] == []
    assert record["final_sides"] == {"Hal Prices": "YES", "Ivy Assets": "NO"}
    assert record["metrics"]["regime"] == "disagreement_no_crux"
    assert "no crux card" in record["regime_basis"] and "Hal Prices YES, Ivy Assets NO" in record["regime_basis"]

    debate = Debate.objects.get(pk=record["debate_id"])
    markdown = debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    assert "Where it landed: **Disagreement, no crux isolated: their final answers split" in markdown
    assert "- **Hal Prices**: yes\n- **Ivy Assets**: no" in markdown
    trails = dict(line[2:].split(": ", 1) for line in markdown.splitlines() if line.startswith("- ") and ": `" in line)
    assert trails["Hal Prices"].strip("`").endswith("YYY") and trails["Ivy Assets"].strip("`").endswith("NNN")
