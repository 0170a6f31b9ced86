"""A debate whose worker died is finished by another worker, with nobody clicking anything."""

import os
import signal
import subprocess
import time
import uuid

import pytest
from celery import Celery
from django.conf import settings
from django.db import connection

from debates.models import Debate, Event, Message
from debates.services.leases import debate_lease
from debates.services.lifecycle import debate_create
from devtools.fake_messages_api import FakeMessagesAPI
from devtools.scripted_debate import DebateScript
from ops.launcher import celery_worker_command
from orchestration.recovery import debates_recover
from orchestration.run import debate_run
from tests.conftest import ROOT
from tests.conftest import test_database_url as database_url_for
from tests.support.fake_anthropic import persona_calls_held_after

pytestmark = pytest.mark.django_db(transaction=True)


class Workers:
    """Real Celery workers on a queue of this test's own (the session's shared worker never sees
    it), sweeping for orphans every 2 s, their model calls going to a scripted fake API."""

    def __init__(self, api_url: str) -> None:
        self.queue = f"recovery-test-{uuid.uuid4().hex[:8]}"
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url_for(connection.settings_dict, settings.DATABASE_URL),
            "REDIS_URL": settings.REDIS_URL,
            "PYTHONUNBUFFERED": "1",
            "FAULTLINE_LLM": "anthropic",
            "ANTHROPIC_API_KEY": "test-key",
            "ANTHROPIC_BASE_URL": api_url,
            "ANTHROPIC_MAX_RETRIES": "2",
            "FAULTLINE_QUEUE": self.queue,
            "FAULTLINE_RECOVERY_SWEEP_SECONDS": "2",
        }
        self.processes: list[subprocess.Popen] = []
        self.app = Celery(broker=settings.CELERY_BROKER_URL, set_as_current=False)

    def start(self) -> subprocess.Popen:
        hostname = f"{self.queue}-{len(self.processes)}@localhost"
        log = open(ROOT / ".faultline" / f"{hostname.split('@')[0]}.log", "w")
        worker = subprocess.Popen(
            celery_worker_command(concurrency=2, hostname=hostname),
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.processes.append(worker)
        return worker

    def send(self, debate_id) -> None:
        self.app.send_task("orchestration.run_debate", args=[str(debate_id)], queue=self.queue)

    def stop(self) -> None:
        for worker in self.processes:
            if worker.poll() is None:
                worker.terminate()
                try:
                    worker.wait(20)
                except subprocess.TimeoutExpired:
                    worker.kill()


@pytest.fixture
def workers():
    script = DebateScript(dispute="none")
    with FakeMessagesAPI(responder=script.respond) as api:
        pool = Workers(api.url)
        pool.api = api
        yield pool
        pool.stop()


def wait_for(condition, timeout: float, what: str, worker=None):
    deadline = time.monotonic() + timeout
    while not condition():
        if worker is not None:
            assert worker.poll() is None, f"the worker exited while waiting for {what}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def test_a_sigkilled_workers_debate_is_finished_by_a_new_worker_without_a_human(workers, personas):
    debate = debate_create(owner=None, topic="Is hard money the future?", personas=personas, max_turns=6)
    with persona_calls_held_after(workers.api, 4):  # the first worker dies waiting for its fifth turn
        first = workers.start()
        workers.send(debate.id)
        wait_for(
            lambda: Message.objects.filter(debate=debate, status="complete").count() >= 4, 120, "four turns", first
        )
        os.kill(first.pid, signal.SIGKILL)
        first.wait()
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.RUNNING  # stranded, as before
    workers.start()  # nobody clicks Resume: the new worker's sweep finds the debate

    wait_for(lambda: Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED, 180, "the debate to finish")
    debate.refresh_from_db()
    messages = Message.objects.filter(debate=debate, room__isnull=True).order_by("turn")
    assert list(messages.values_list("turn", flat=True)) == list(range(1, 3 + 6 + 3 + 1))
    assert not messages.exclude(status="complete").exists()
    assert Event.objects.filter(debate=debate, kind="debate_finished").count() == 1
    assert Event.objects.filter(debate=debate, kind="debate_resumed").count() == 1
    assert debate.recoveries == 1


def test_the_sweep_queues_only_debates_nobody_holds(personas, monkeypatch):
    from orchestration import recovery

    sent = []
    monkeypatch.setattr(recovery.current_app, "send_task", lambda name, args: sent.append(args[0]))
    orphan = debate_create(owner=None, topic="Orphaned?", personas=personas)
    held = debate_create(owner=None, topic="Held?", personas=personas)
    fresh = debate_create(owner=None, topic="Just queued?", personas=personas)  # pending, within the grace
    Debate.objects.filter(pk__in=[orphan.pk, held.pk]).update(status=Debate.Status.RUNNING)

    with debate_lease(held.id):
        assert debates_recover() == [orphan.id]
        assert debates_recover() == []  # queued once, not at every sweep while the queue is busy
    assert sent == [str(orphan.id)]
    assert fresh.id not in sent


def test_a_debate_that_keeps_killing_its_worker_is_failed_with_a_reason(personas, settings):
    settings.FAULTLINE_MAX_RECOVERIES = 2
    debate = debate_create(owner=None, topic="Cursed?", personas=personas)
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, phase="dialogue:1", recoveries=2)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    assert "died 2 times in a row" in debate.failure_reason and "dialogue:1" in debate.failure_reason
    assert Event.objects.filter(debate=debate, kind="debate_failed").count() == 1


class WorkerDied(BaseException):
    """What a SIGKILL leaves behind, in-process: the run stops where it is, nothing is marked
    failed, and the lease goes with the (dead) connection."""


def test_a_debate_whose_second_worker_dies_too_is_queued_again_by_the_next_sweep(personas, monkeypatch):
    from orchestration import recovery
    from orchestration.loop import DebateRun

    sent = []
    monkeypatch.setattr(recovery.current_app, "send_task", lambda name, args: sent.append(args[0]))
    debate = debate_create(owner=None, topic="Twice unlucky?", personas=personas)
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING)  # its first worker died
    assert debates_recover() == [debate.id]

    def die(self):
        raise WorkerDied

    monkeypatch.setattr(DebateRun, "execute", die)
    with pytest.raises(WorkerDied):
        debate_run(debate_id=debate.id)  # the queued run picks it up, and its worker dies as well

    # Found at once, not after the grace that keeps a backed-up queue from getting it twice
    # (benchmarks/faults.py, kill-worker: debates stalled ten minutes after a second kill).
    assert debates_recover() == [debate.id]
    assert sent == [str(debate.id), str(debate.id)]
    assert Debate.objects.get(pk=debate.pk).recoveries == 1


def test_a_run_after_a_dead_one_does_the_side_work_it_left(scripted_api, new_debate, settings):
    from gateways.llm.models import ModelCall

    scripted_api(dispute="none")
    debate = debate_run(debate_id=new_debate(max_turns=6).id)
    dialogue = list(Message.objects.filter(debate=debate, kind__in=["key_argument", "reply"]).order_by("turn"))
    windows = len(dialogue) // settings.CRUX_DETECTION_EVERY_MESSAGES
    assert windows == 2 and debate.detection_windows_done == 2
    # As a worker killed late in the dialogue leaves it: a window's digest in flight.
    lost = [dialogue[-1].id, dialogue[-2].id]
    Message.objects.filter(id__in=lost).update(ledgered=False)
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING, detection_windows_done=1)
    ledger_calls = ModelCall.objects.filter(debate=debate, phase="ledger").count()
    scans = ModelCall.objects.filter(debate=debate, phase="detection").count()

    debate = debate_run(debate_id=debate.id)

    assert not Message.objects.filter(debate=debate, ledgered=False).exists()
    assert ModelCall.objects.filter(debate=debate, phase="ledger").count() == ledger_calls + 1  # one digest for both
    assert debate.detection_windows_done == 2
    assert ModelCall.objects.filter(debate=debate, phase="detection").count() == scans + 1
