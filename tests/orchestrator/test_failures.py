import itertools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from debates.models import Debate, Event, Message
from debates.selectors import debate_view
from devtools.fake_messages_api import Reply
from orchestration.run import debate_run
from tests.conftest import test_database_url as database_url_for

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]


def test_a_529_storm_fails_the_debate_and_keeps_every_earlier_message(scripted_api, new_debate):
    api, script = scripted_api(dispute="none")
    healthy = api.responder

    def storm_after_five_turns(body, call):
        if script.calls.get("persona", 0) >= 5:
            return Reply.overloaded()
        return healthy(body, call)

    api.responder = storm_after_five_turns
    debate = new_debate(max_turns=12)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    assert "overloaded (HTTP 529)" in debate.failure_reason
    kept = Message.objects.filter(debate=debate, status=Message.Status.COMPLETE)
    assert kept.count() == 5
    view = debate_view(debate_id=debate.id)
    assert view.status == "failed" and "529" in view.failure_reason
    assert [item.message.text for item in view.chat if item.message] == list(
        kept.order_by("turn").values_list("text", flat=True)
    )
    assert Event.objects.filter(debate=debate, kind="debate_failed").count() == 1


def test_a_failed_debate_resumes_where_it_stopped(scripted_api, new_debate):
    api, script = scripted_api(dispute="none")
    healthy = api.responder
    api.responder = lambda body, call: (
        Reply.overloaded() if script.calls.get("persona", 0) >= 4 else healthy(body, call)
    )
    debate = new_debate(max_turns=6)
    debate_run(debate_id=debate.id)
    before = list(Message.objects.filter(debate=debate, status="complete").order_by("turn").values_list("id", "text"))

    api.responder = healthy
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    after = list(Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("id", "text"))
    assert after[: len(before)] == before  # nothing earlier repeated or lost
    assert len(after) == 3 + 6 + 3  # openings, dialogue, closings
    turns = list(
        Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("turn", flat=True)
    )
    assert turns == list(range(1, len(turns) + 1))


def test_a_worker_killed_mid_debate_resumes_without_repeating_or_losing_turns(scripted_api, new_debate):
    api, _ = scripted_api(dispute="none")
    healthy = api.responder
    persona_calls = itertools.count(1)

    def fifth_turn_streams_slowly(body, call):
        # Every turn comes at once but the fifth, which trickles in (6 characters a second), so the
        # kill below lands on a half-written turn however fast or loaded the machine is.
        reply = healthy(body, call)
        if call.role == "persona" and next(persona_calls) == 5:
            reply.chunk_size, reply.chunk_delay = 6, 1.0
        return reply

    api.responder = fifth_turn_streams_slowly
    debate = new_debate(max_turns=6)
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for(connection.settings_dict, django_settings.DATABASE_URL),
        "FAULTLINE_LLM": "anthropic",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": api.url,
    }
    # The orchestrator in its own process, killed without warning once a few turns are in.
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from orchestration.run import debate_run; "
            f"debate_run(debate_id='{debate.id}')",
        ],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "faultline.settings"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 180  # the process's Django start-up alone took a minute at load 15
    while Message.objects.filter(debate=debate, status="complete").count() < 4:
        assert worker.poll() is None and time.monotonic() < deadline, "the orchestrator ended before the kill"
        time.sleep(0.05)
    while not Message.objects.filter(debate=debate, status="streaming").exclude(text="").exists():
        assert worker.poll() is None and time.monotonic() < deadline, "no turn was caught mid-stream"
        time.sleep(0.01)  # kill it mid-stream, with a half-written turn on the page
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    cut_off = Message.objects.get(debate=debate, status="streaming")

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    messages = Message.objects.filter(debate=debate, room__isnull=True).order_by("turn")
    assert messages.count() == 3 + 6 + 3
    assert list(messages.values_list("turn", flat=True)) == list(range(1, 13))
    cut_off.refresh_from_db()
    assert cut_off.status == "complete" and cut_off.text  # the same turn, finished, not a second copy
    view = debate_view(debate_id=debate.id)
    ids = [item.message.id for item in view.chat if item.message]
    assert len(ids) == len(set(ids)) == 12
    seqs = list(Event.objects.filter(debate=debate).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert Event.objects.filter(debate=debate, kind="debate_resumed").count() == 1
    # Side work the dead worker had in flight is done by the run that followed it, not lost.
    assert not Message.objects.filter(debate=debate, status="complete", ledgered=False).exists()
    dialogue = messages.filter(kind__in=["key_argument", "reply", "dismissal"]).count()
    assert debate.detection_windows_done == dialogue // django_settings.CRUX_DETECTION_EVERY_MESSAGES


def test_the_cli_resumes_a_failed_debate(scripted_api, new_debate, capsys):
    from django.core.management import call_command

    api, script = scripted_api(dispute="none")
    healthy = api.responder
    api.responder = lambda body, call: (
        Reply.overloaded() if script.calls.get("persona", 0) >= 2 else healthy(body, call)
    )
    debate = new_debate(max_turns=3)
    debate_run(debate_id=debate.id)
    api.responder = healthy

    call_command("rundebate", "--resume", str(debate.id))

    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED
    assert "Status: completed" in capsys.readouterr().out


def test_a_running_debate_held_by_a_live_orchestrator_cannot_be_resumed(new_debate):
    import zlib

    import psycopg
    from django.db import connections

    from debates.services.lifecycle import debate_can_resume

    debate = new_debate()
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING)
    debate.refresh_from_db()
    # Another process, in effect: a session of its own, as a lease holds (not one from the pool).
    params = connections["default"].get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    orchestrator_session = psycopg.connect(**params, autocommit=True)
    try:
        orchestrator_session.execute("SELECT pg_advisory_lock(%s)", [zlib.crc32(str(debate.id).encode())])
        assert not debate_can_resume(debate=debate)
    finally:
        orchestrator_session.close()  # as if its worker died: PostgreSQL drops the lock

    deadline = time.monotonic() + 5  # the server notices the closed session a moment later
    while not debate_can_resume(debate=debate) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert debate_can_resume(debate=debate)
