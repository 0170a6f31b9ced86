"""A worker that stops taking work while it still runs is replaced at once, and the old one is
left to finish what it runs (ops/launcher.py Child, ops/worker_liveness.py).

The real case: a Redis restart under a busy worker. kombu 5.7 fails restoring the unacknowledged
task on the connection loss ("Unrecoverable error"), the worker goes into a warm shutdown and
takes nothing more; it exits only once its running task is done."""

import os
import time
from pathlib import Path

import pytest
from celery import Celery

from ops import embedded, worker_liveness
from ops.launcher import Child, RestartPolicy, celery_worker_command
from tests.support.supervised import private_redis

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def worker_child(heartbeats: Path) -> Child:
    command = [
        *celery_worker_command(concurrency=2, hostname="liveness-{generation}@localhost"),
        *("--include", "tests.support.worker_tasks"),
    ]
    return Child("worker", command, RestartPolicy(), heartbeats=heartbeats)


def supervise_until(child: Child, env: dict, done, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen within {timeout:g} s"
        child.supervise(env)
        time.sleep(0.25)


def test_a_worker_that_stops_taking_work_after_a_redis_restart_is_replaced_at_once(state_dir, settings, tmp_path):
    with private_redis(state_dir) as redis_url:
        broker = redis_url.replace("unix://", "redis+socket://")
        client = Celery("liveness-test", broker=broker, set_as_current=False)  # the suite's app stays current
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "DATABASE_URL": settings.DATABASE_URL,
            "FAULTLINE_STATE_DIR": str(state_dir),
            "FAULTLINE_RECOVERY_SWEEP_SECONDS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        child = worker_child(tmp_path / "heartbeats")
        child.start(env)
        try:
            supervise_until(
                child,
                env,
                lambda: worker_liveness.worker_state(child.heartbeat) == worker_liveness.CONSUMING,
                60,
                "the worker's start",
            )
            first = child.process
            # The task runs until the test releases it (at most 180 s), so a loaded machine cannot
            # end it before the replacement has answered.
            marker, release = tmp_path / "held", tmp_path / "release"
            client.send_task("tests.hold", args=[str(marker), 180.0, str(release)])
            supervise_until(child, env, lambda: marker.exists(), 30, "the task's start")

            embedded.redis_stop()
            time.sleep(2)
            embedded.redis_url()
            supervise_until(child, env, lambda: child.generation == 2, 20, "a replacement")

            # The replacement takes work at once, while the old worker still finishes its task.
            assert first in child.retiring and first.poll() is None
            supervise_until(
                child,
                env,
                lambda: client.control.ping(destination=["liveness-2@localhost"], timeout=0.5),
                60,
                "the replacement's first answer",
            )
            assert first.poll() is None and marker.read_text() == "started\n"
            release.touch()
            supervise_until(child, env, lambda: not child.retiring, 60, "the old worker's exit")
            assert marker.read_text() == "started\nfinished\n"  # run once, to its end, never again
            assert child.running() and child.generation == 2
        finally:
            child.stop()


def test_a_worker_silent_for_too_long_counts_as_gone(tmp_path):
    heartbeat = tmp_path / "worker-1"
    assert worker_liveness.worker_state(heartbeat) == worker_liveness.STARTING  # nothing written yet
    heartbeat.write_text(worker_liveness.CONSUMING)
    assert worker_liveness.worker_state(heartbeat) == worker_liveness.CONSUMING
    later = time.time() + worker_liveness.SILENT_AFTER_SECONDS + 1
    assert worker_liveness.worker_state(heartbeat, now=later) == worker_liveness.SILENT
