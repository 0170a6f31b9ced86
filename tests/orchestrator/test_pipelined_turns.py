"""A finished turn is written beside the next one: the next request goes out before its rows are,
the next speaker still reads it, and the log keeps every turn whole and in order."""

import json
import threading
import time

import pytest
from django.db import connection, connections

from debates.models import Debate, Event, Message
from debates.turns import DIALOGUE_KINDS
from devtools.fake_messages_api import Reply
from gateways.llm.models import ModelCall
from gateways.llm.selectors import debate_spend
from orchestration import speaking
from orchestration.lanes import Lanes
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)

WRITE_SECONDS = 0.15


def test_the_next_request_goes_out_before_the_last_turn_is_written_and_still_carries_it(
    scripted_api, new_debate, monkeypatch
):
    api, _ = scripted_api(dispute="none", latency=0.05)
    scripted = api.responder
    requests = []  # (time, the persona prompt's user text)

    def recording(body, call):
        if call.role == "persona":
            requests.append((time.monotonic(), json.dumps(body.get("messages", []))))
        return scripted(body, call)

    api.responder = recording
    written = {}  # turn -> when its rows were committed
    say, finish = speaking.message_say, speaking.message_finish

    def slow_say(*, message, **rest):
        time.sleep(WRITE_SECONDS)
        say(message=message, **rest)
        if message.room_id is None:
            written[message.turn] = time.monotonic()

    def slow_finish(*, message, **rest):
        time.sleep(WRITE_SECONDS)
        finish(message=message, **rest)
        if message.room_id is None:
            written[message.turn] = time.monotonic()

    monkeypatch.setattr(speaking, "message_say", slow_say)
    monkeypatch.setattr(speaking, "message_finish", slow_finish)
    debate = new_debate(max_turns=6)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    said = list(Message.objects.filter(debate=debate, room__isnull=True).order_by("turn"))
    assert [m.turn for m in said] == list(range(1, len(said) + 1)) and len(said) == 12
    assert all(m.status == Message.Status.COMPLETE for m in said)
    # Some turn's request left while the turn before it was still being written ...
    assert len(requests) == len(said)
    early = [turn for turn, at in written.items() if turn < len(requests) and requests[turn][0] < at]
    assert early, "every request waited for the previous turn's rows"
    # ... and every dialogue request carried the turn just before it on its aspect, written or not.
    checked = 0
    for message in said:
        previous = said[message.turn - 2]
        if message.kind in DIALOGUE_KINDS and previous.aspect_index == message.aspect_index:
            assert json.dumps(previous.text)[1:40] in requests[message.turn - 1][1], f"turn {message.turn}"
            checked += 1
    assert checked >= 2
    # The log: each main-channel message started and completed once, in turn order, seq unbroken.
    events = list(Event.objects.filter(debate=debate).order_by("seq"))
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    ids = {m.id: m.turn for m in said}
    started = [
        ids[e.payload["message_id"]] for e in events if e.kind == "message_started" and e.payload["message_id"] in ids
    ]
    completed = [
        ids[e.payload["message_id"]] for e in events if e.kind == "message_completed" and e.payload["message_id"] in ids
    ]
    assert started == completed == sorted(started) == list(range(1, 13))
    # Every call is in the spend ledger (persona calls' rows are written beside the next turn too),
    # and the finished event's totals count them all.
    calls = ModelCall.objects.filter(debate=debate)
    assert calls.filter(role="persona").count() == len(requests)
    finished = events[-1]
    assert finished.kind == "debate_finished"
    assert finished.payload["totals"]["output_tokens"] == debate_spend(debate_id=debate.id)["output_tokens"] > 0


def test_side_work_queued_after_a_turn_starts_once_the_turn_is_written():
    lanes = Lanes("test", {"persist": 1, "ledger": 1}, first="persist")
    written = threading.Event()
    try:
        lanes.submit("persist", lambda: (time.sleep(0.2), written.set()))
        seen = lanes.submit("ledger", written.is_set)
        assert seen.result(5) is True
    finally:
        lanes.shutdown()


def test_a_lane_job_gives_its_connection_back_to_the_pool_and_the_next_reuses_one(settings):
    lanes = Lanes("test", {"ledger": 2, "notes": 1})

    def query():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            return cursor.fetchone()[0], connections["default"]

    try:
        answers = [lanes.submit(lane, query).result(5) for _ in range(10) for lane in ("ledger", "notes")]
    finally:
        lanes.shutdown()
    assert all(wrapper.connection is None for _, wrapper in answers), "a lane thread kept a connection"
    pool_size = settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    assert len({pid for pid, _ in answers}) <= pool_size, "each job opened a PostgreSQL backend of its own"


def test_a_failed_run_still_records_every_model_call_it_made(scripted_api, new_debate):
    api, script = scripted_api(dispute="none", latency=0.02)
    healthy = api.responder
    received = []

    def storm_after_five_turns(body, call):
        if script.calls.get("persona", 0) >= 5:
            received.append("overloaded")
            return Reply.overloaded()
        received.append("answered")
        return healthy(body, call)

    api.responder = storm_after_five_turns
    debate = new_debate(max_turns=12)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    # One ModelCall row per call answered, and per call refused after the SDK's 2 retries (the
    # embedding calls of in-debate memory are recorded too, and counted apart).
    calls = received.count("answered") + received.count("overloaded") // 3
    assert received.count("overloaded") % 3 == 0
    generated = ModelCall.objects.filter(debate=debate).exclude(role="embedding")
    assert generated.count() == calls
    assert generated.filter(error="").count() == received.count("answered")
    assert Message.objects.filter(debate=debate, status=Message.Status.COMPLETE).count() == 5
