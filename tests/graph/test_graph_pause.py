"""Pause and Continue in the graph mode: the map is brought up to date before the run lets go, and
the run that continues draws the rest of it from where it stopped, no turn or crystallization
repeated or lost."""

import threading

import pytest

from debates.models import Debate, Event, Message
from debates.services.lifecycle import debate_continue, debate_create
from orchestration.run import debate_run
from tests.orchestrator.test_pause import _pause_once
from tests.support.fake_anthropic import persona_call_waits

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_graph_debate_paused_mid_dialogue_continues_its_map_where_it_stopped(scripted_api, personas):
    api, _ = scripted_api()
    debate = debate_create(owner=None, topic="Is hard money the future?", personas=personas, max_turns=30, mode="graph")
    asked = threading.Event()
    persona_call_waits(api, 7, asked)  # the turn under way when the pause is asked for
    threading.Thread(target=_pause_once, args=(debate.id, 6, asked)).start()

    debate = debate_run(debate_id=debate.id)
    asked.wait(10)

    assert debate.status == Debate.Status.PAUSED, debate.failure_reason
    said = Message.objects.filter(debate=debate).count()
    assert not Message.objects.filter(debate=debate, status="streaming").exists()
    # Every window the map was due for is in before the pause (nothing left running).
    rounds_at_pause = Event.objects.filter(debate=debate, kind="graph_updated").count()
    assert rounds_at_pause >= 1

    debate_continue(debate=debate, enqueue=False)
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    turns = list(Message.objects.filter(debate=debate).order_by("turn").values_list("turn", flat=True))
    assert turns == list(range(1, len(turns) + 1)) and len(turns) > said
    updates = list(
        Event.objects.filter(debate=debate, kind="graph_updated").order_by("seq").values_list("payload", flat=True)
    )
    assert [u["round"] for u in updates] == list(range(len(updates)))
    covered = [u["turns"] for u in updates]
    assert all(a[1] < b[0] for a, b in zip(covered, covered[1:], strict=False))  # no turn crystallized twice
    assert updates[-1]["final"] and debate.results["graph"]
