"""The Analyst/Critic verdict comes from the verdict table (debates/regime.py): an unverifiable
point is open against consensus, so the rounds go on, and every place names the verdict by its
label."""

import pytest
from django.core.management import call_command

from debates.exports import debate_markdown
from debates.models import Debate, Event
from debates.payloads import EventKind, parse_payload
from debates.regime import verdict_sentence
from debates.selectors import debate_view
from debates.services.notes import debate_synthesis_markdown
from orchestration.run import debate_run
from tests.analyst_critic.conftest import STEP_BY_STEP, A, B, C, assessment

pytestmark = pytest.mark.django_db(transaction=True)

D = "Bonds steady a portfolio in a crash"
ONE_AGREED_THREE_UNVERIFIABLE = [assessment(agreed=[A], unverifiable=[B, C, D], overall="strong")]


def scored(debate) -> list:
    events = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    return [parse_payload(event.kind, event.payload) for event in events]


def test_one_agreed_and_three_unverifiable_points_is_no_consensus(critic_api, new_ac_debate):
    critic_api(ONE_AGREED_THREE_UNVERIFIABLE)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=2).id)

    assert debate.status == Debate.Status.COMPLETED
    assert [(r.round, r.consensus) for r in scored(debate)] == [(1, False), (2, False)]  # the rounds went on
    results = debate.results
    assert results["status"] == "max_rounds" and results["rounds"] == 2
    assert results["regime"] == "partial"
    assert "1 agreed, 0 contested, 3 unverifiable" in results["regime_basis"]


def test_the_critic_agreeing_to_every_point_is_consensus_by_the_same_table(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=5).id)

    assert [r.consensus for r in scored(debate)] == [False, False, True]
    assert debate.results["status"] == "consensus" and debate.results["regime"] == "consensus"


def test_a_skipped_last_assessment_leaves_the_critics_final_answer_unrecorded(critic_api, new_ac_debate):
    critic_api([assessment(agreed=[A], unverifiable=[B]), ["not json", "still not json"]])
    debate = debate_run(debate_id=new_ac_debate(max_rounds=2).id)

    assert [(r.round, r.assessed) for r in scored(debate)] == [(1, True), (2, False)]
    # Round 1's open point still speaks (partial), and the basis says what is missing.
    assert debate.results["regime"] == "partial"
    assert "the Analyst's recorded, the Critic's assessment of it not recorded" in debate.results["regime_basis"]


def test_every_place_names_the_verdict_by_its_label(critic_api, capsys):
    critic_api(ONE_AGREED_THREE_UNVERIFIABLE)
    call_command(
        "rundebate",
        "--mode",
        "analyst-critic",
        "--topic",
        "Should a saver buy index funds?",
        "--max-rounds",
        "1",
        "--auto-continue",
    )

    lines = capsys.readouterr().out.strip().splitlines()
    debate = Debate.objects.get()
    sentence = verdict_sentence(results=debate.results, status=debate.status)
    assert sentence.startswith("No consensus within the rounds allowed. Partial agreement")
    assert f"Where it landed: {sentence}" in lines and not any(line.startswith("Regime:") for line in lines)
    assert lines[-1] == "Final consensus score: 25% (status: max_rounds)"  # unverifiable points count against it
    markdown = debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    assert f"Where it landed: **{sentence}**" in markdown and "Regime:" not in markdown
    assert "Where it landed: No consensus within the rounds allowed. Partial agreement (" in debate_synthesis_markdown(
        debate=debate
    )
