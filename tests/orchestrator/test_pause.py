"""Pause and Continue in the dialogue mode: a pause asked for mid-debate takes effect after the
current turn, the run lets go of the debate, and a later run (any worker) continues where it
paused, no turn repeated or lost."""

import threading
import time

import pytest
from django.db import connection

from debates.models import Debate, Event, Message
from debates.payloads import EventKind, parse_payload
from debates.selectors import debate_view
from debates.services.leases import debate_is_being_run
from debates.services.lifecycle import debate_continue, debate_pause
from orchestration.recovery import debates_recover
from orchestration.run import debate_run
from tests.support.fake_anthropic import persona_call_waits

pytestmark = pytest.mark.django_db(transaction=True)


def _pause_once(debate_id, after_messages: int, done: threading.Event) -> None:
    """From another thread, as the owner's click would: ask for a pause once a few turns are in."""
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if Message.objects.filter(debate_id=debate_id, status="complete").count() >= after_messages:
                debate_pause(debate=Debate.objects.get(pk=debate_id))
                return
            time.sleep(0.01)
    finally:
        connection.close()
        done.set()


def test_a_dialogue_paused_after_a_turn_continues_where_it_stopped(scripted_api, new_debate):
    api, _ = scripted_api(dispute="none")
    debate = new_debate(max_turns=6)
    asked = threading.Event()
    persona_call_waits(api, 5, asked)  # the turn under way when the pause is asked for
    threading.Thread(target=_pause_once, args=(debate.id, 4, asked)).start()

    debate = debate_run(debate_id=debate.id)
    asked.wait(10)

    assert debate.status == Debate.Status.PAUSED and not debate.pause_requested
    said = list(Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("id", "text"))
    assert 4 <= len(said) < 12
    assert not Message.objects.filter(debate=debate, status="streaming").exists()  # paused after a whole turn
    paused = parse_payload(EventKind.DEBATE_PAUSED, Event.objects.get(debate=debate, kind="debate_paused").payload)
    assert paused.reason == "requested" and paused.turn == len(said)
    assert debate_view(debate_id=debate.id).status == "paused"
    assert not debate_is_being_run(debate_id=debate.id) and debates_recover() == []

    debate_continue(debate=debate, enqueue=False)
    debate = debate_run(debate_id=debate.id)  # a new run, as a restarted worker would start it

    assert debate.status == Debate.Status.COMPLETED
    messages = Message.objects.filter(debate=debate, room__isnull=True).order_by("turn")
    assert list(messages.values_list("id", "text"))[: len(said)] == said  # nothing earlier said again
    assert messages.count() == 3 + 6 + 3  # openings, dialogue, closings: none lost
    assert list(messages.values_list("turn", flat=True)) == list(range(1, 13))
    seqs = list(Event.objects.filter(debate=debate).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    kinds = list(
        Event.objects.filter(debate=debate, kind__in=["debate_paused", "debate_continued", "debate_resumed"])
        .order_by("seq")
        .values_list("kind", flat=True)
    )
    assert kinds == ["debate_paused", "debate_continued", "debate_resumed"]
    assert not Message.objects.filter(debate=debate, status="complete", ledgered=False).exists()


def test_a_pause_asked_for_while_queued_pauses_before_the_first_turn(scripted_api, new_debate):
    scripted_api(dispute="none")
    debate = new_debate(max_turns=3)
    debate_pause(debate=debate)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.PAUSED
    assert not Message.objects.filter(debate=debate).exists()


def test_a_continue_delivered_while_the_pausing_run_still_holds_the_lease_is_retried(new_debate, monkeypatch):
    from debates.services.leases import debate_lease
    from orchestration.tasks import run_debate

    retried = []

    class Retried(Exception):
        pass

    def retry(**kwargs):
        retried.append(kwargs["countdown"])
        return Retried()

    monkeypatch.setattr(run_debate, "retry", retry)
    debate = new_debate()
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.PAUSED)
    debate_continue(debate=debate, enqueue=False)

    with debate_lease(debate.id), pytest.raises(Retried):
        run_debate(str(debate.id))  # the run that paused it has not let go yet

    assert retried == [1]
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.PENDING
