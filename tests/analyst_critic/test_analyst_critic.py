import pytest
from django.core.management import call_command

from debates.models import Debate, Event, Message
from debates.payloads import EventKind, parse_payload
from gateways.llm.models import ModelCall
from orchestration.run import debate_run
from tests.analyst_critic.conftest import (
    ANALYST_MODEL,
    CRITIC_MODEL,
    NEVER_AGREES,
    STEP_BY_STEP,
    A,
    B,
    assessment,
)

pytestmark = pytest.mark.django_db(transaction=True)


def scored(debate) -> list:
    events = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    return [parse_payload(event.kind, event.payload) for event in events]


def kinds(debate) -> list[str]:
    return list(Message.objects.filter(debate=debate).order_by("turn").values_list("kind", flat=True))


def test_a_critic_agreeing_step_by_step_reaches_consensus_in_round_3_and_stops(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=5).id)

    assert debate.status == Debate.Status.COMPLETED
    rounds = scored(debate)
    assert [r.round for r in rounds] == [1, 2, 3]
    assert [round(r.score) for r in rounds] == [33, 67, 100]
    assert [r.consensus for r in rounds] == [False, False, True]
    assert kinds(debate) == ["analysis", "critique"] * 3 + ["synthesis"]
    results = debate.results
    assert results["status"] == "consensus" and results["score"] == 100.0 and results["rounds"] == 3
    assert results["synthesis"].startswith("Synthesis:")
    # The two restated points were matched to round 1's, not counted again.
    assert len(results["points"]) == 3 and results["agreed"][0] == A


def test_a_critic_that_never_agrees_stops_at_max_rounds_with_the_synthesis_written(critic_api, new_ac_debate):
    critic_api(NEVER_AGREES)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3).id)

    assert debate.status == Debate.Status.COMPLETED
    assert [round(r.score) for r in scored(debate)] == [50, 50, 50]
    assert debate.results["status"] == "max_rounds" and debate.results["rounds"] == 3
    assert debate.results["contested"] == [B]
    synthesis = Message.objects.get(debate=debate, kind=Message.Kind.SYNTHESIS)
    assert synthesis.status == Message.Status.COMPLETE and synthesis.text == debate.results["synthesis"]
    assert ModelCall.objects.filter(debate_id=debate.id, role="synthesis", error="").count() == 1


def test_a_malformed_assessment_is_repaired_once_then_skipped_without_failing(critic_api, new_ac_debate):
    broken = {"agreed": "all of it", "overall": "total"}
    script = critic_api([[broken, "not json at all"], assessment(agreed=[A]), assessment(agreed=[A, B])])
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3).id)

    assert debate.status == Debate.Status.COMPLETED
    rounds = scored(debate)
    assert [(r.round, r.assessed, r.score) for r in rounds] == [(1, False, 0.0), (2, True, 100.0)]
    assert script.attempts[1] == 2  # the first try and exactly one repair
    assessments = ModelCall.objects.filter(debate_id=debate.id, phase="assessment").order_by("id")
    assert assessments.count() == 3
    assert debate.results["status"] == "consensus"


def test_a_repaired_assessment_counts(critic_api, new_ac_debate):
    critic_api([[{"agreed": 1}, assessment(agreed=[A], overall="strong")]])
    debate = debate_run(debate_id=new_ac_debate(max_rounds=2).id)

    first = scored(debate)[0]
    assert first.assessed and first.level == "strong" and first.score == 100.0 and first.consensus


def test_no_points_scores_zero_and_the_debate_continues(critic_api, new_ac_debate):
    critic_api([assessment(overall="weak"), assessment(agreed=[A])])
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3).id)

    assert [(r.round, r.score, r.consensus) for r in scored(debate)] == [(1, 0.0, False), (2, 100.0, True)]


def test_the_two_roles_use_the_two_configured_models(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate().id)

    calls = ModelCall.objects.filter(debate_id=debate.id, error="")
    assert set(calls.filter(role="analyst").values_list("model", flat=True)) == {ANALYST_MODEL}
    assert set(calls.filter(role="critic").values_list("model", flat=True)) == {CRITIC_MODEL}
    assert calls.filter(role="analyst").count() == 3
    assert calls.filter(role="critic", phase="assessment").count() == 3
    assert calls.filter(role="critic").exclude(phase="assessment").count() == 3
    assert debate.results["models"] == {"analyst": ANALYST_MODEL, "critic": CRITIC_MODEL}


def test_the_cli_prints_each_round_and_ends_with_the_final_score_and_status(critic_api, capsys):
    critic_api(STEP_BY_STEP)
    call_command("rundebate", "--mode", "analyst-critic", "--topic", "Index funds?", "--auto-continue")

    lines = capsys.readouterr().out.strip().splitlines()
    assert [line.split(" —")[0] for line in lines if line.startswith("Round ")] == [
        "Round 1: consensus score 33%",
        "Round 2: consensus score 67%",
        "Round 3: consensus score 100%",
    ]
    assert lines[-1] == "Final consensus score: 100% (status: consensus)"


def test_the_cli_stops_at_max_rounds(critic_api, capsys):
    critic_api(NEVER_AGREES)
    call_command(
        "rundebate", "--mode", "analyst-critic", "--topic", "Index funds?", "--max-rounds", "2", "--auto-continue"
    )

    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "Final consensus score: 50% (status: max_rounds)"
    assert Debate.objects.get().max_turns == 2


@pytest.mark.original_prompts  # reads the turns' prompts as worded
def test_past_8_messages_older_ones_are_condensed_and_the_last_6_given_in_full(critic_api, new_ac_debate):
    script = critic_api(NEVER_AGREES)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=5).id)

    def user_text(body) -> str:
        return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")

    streamed = [user_text(body) for body in script.requests if not body.get("output_config")]
    assert len(streamed) == 11  # 5 rounds of two turns, and the synthesis
    # Round 4's Critic sees 7 messages, round 5's Analyst 8: all in full.
    assert all("Summary of the earlier rounds" not in text for text in streamed[:9])
    last_critique, synthesis = streamed[9], streamed[10]
    for text in (last_critique, synthesis):
        summary, _, latest = text.partition("The latest rounds in full")
        assert "Summary of the earlier rounds:\nAgreed: " + A in summary and f"Contested: {B}" in summary
        assert len(summary) <= 4_000 + 200
        assert latest.count("\n[turn ") == 6  # one transcript line each (orchestration/prompts.py)
    assert debate.results["status"] == "max_rounds"


def test_a_run_that_follows_a_dead_one_resumes_at_the_right_round(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = new_ac_debate(max_rounds=5)
    debate_run(debate_id=debate.id)
    # As if the worker died during round 3: its assessment, its critique (cut off mid-stream) and
    # everything after are gone.
    Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED, payload__round=3).delete()
    Message.objects.filter(debate=debate, turn__gt=6).delete()
    Message.objects.filter(debate=debate, turn=6).update(status=Message.Status.STREAMING, text="The first")
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, results={}, phase="round:2")
    before = ModelCall.objects.filter(debate_id=debate.id).count()

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED and debate.results["status"] == "consensus"
    assert [r.round for r in scored(debate)] == [1, 2, 3]
    assert kinds(debate) == ["analysis", "critique"] * 3 + ["synthesis"]
    again = ModelCall.objects.filter(debate_id=debate.id).order_by("id")[before:]
    # The cut-off critique, round 3's assessment and the synthesis: no earlier turn said again.
    assert [(call.role, call.phase) for call in again] == [
        ("critic", "analyst_critic_critique"),
        ("critic", "assessment"),
        ("synthesis", "analyst_critic_synthesis"),
    ]


def test_the_cli_takes_two_personas_as_analyst_and_critic_and_refuses_three(critic_api, capsys):
    from django.core.management import CommandError

    from tests.orchestrator.conftest import make_persona

    for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central"):
        make_persona(name)
    with pytest.raises(CommandError, match="takes a hand of two"):
        call_command(
            "rundebate",
            "--mode",
            "analyst-critic",
            "--topic",
            "Gold?",
            "--personas",
            "Ada Hardmoney,Bram Macro,Cleo Central",
        )

    critic_api(STEP_BY_STEP)
    call_command(
        "rundebate",
        "--mode",
        "analyst-critic",
        "--topic",
        "Gold?",
        "--personas",
        "Bram Macro,Ada Hardmoney",
        "--auto-continue",
    )

    debate = Debate.objects.get()
    seats = list(debate.participants.order_by("seat").values_list("persona__name", flat=True))
    assert seats == ["Bram Macro", "Ada Hardmoney"]
    analyst_turns = Message.objects.filter(debate=debate, kind=Message.Kind.ANALYSIS)
    assert set(analyst_turns.values_list("persona__name", flat=True)) == {"Bram Macro"}
    assert capsys.readouterr().out.strip().splitlines()[-1] == "Final consensus score: 100% (status: consensus)"


def test_an_outage_during_the_assessment_is_waited_out_and_the_round_assessed(critic_api, new_ac_debate, settings):
    from tests.analyst_critic.conftest import OVERLOADED

    critic_api([[OVERLOADED, assessment(agreed=[A], overall="strong")]])
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 5  # one wait (the first is 50 ms in tests)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=2).id)

    assert debate.status == Debate.Status.COMPLETED
    assert [(r.round, r.assessed, r.score) for r in scored(debate)] == [(1, True, 100.0)]
    assert kinds(debate) == ["analysis", "critique", "synthesis"]  # no turn said twice
    failed = ModelCall.objects.filter(debate_id=debate.id, phase="assessment").exclude(error="")
    assert failed.count() == 1
