"""`python -m faultline worker`: a Celery worker alone, supervised as `run` supervises it (the worker
container of docker-compose.yml), and `worker --check`, its health check."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from ops import worker_liveness
from tests.support.supervised import descendants, private_redis, start_supervisor

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def worker_check(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "faultline", "worker", "--check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def wait_until_healthy(env: dict, timeout: float) -> str:
    """What `worker --check` says once a worker consumes. Its heartbeat files are watched here (a
    `--check` process every half second cost a Python start-up each); the check is then run once."""
    heartbeats = Path(env["FAULTLINE_STATE_DIR"]) / "heartbeats"
    deadline = time.monotonic() + timeout

    def consuming() -> bool:
        beats = [path for path in heartbeats.glob("*") if not path.name.endswith(".partial")]
        return any(worker_liveness.worker_state(path) == worker_liveness.CONSUMING for path in beats)

    while not consuming():
        assert time.monotonic() < deadline, f"the worker never said it takes work: {worker_check(env).stdout}"
        time.sleep(0.1)
    check = worker_check(env)
    assert check.returncode == 0, check.stdout + check.stderr
    return check.stdout


def test_the_worker_command_restarts_a_killed_worker_and_stops_it_on_sigterm(state_dir, settings, tmp_path):
    with private_redis(state_dir) as redis_url:
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "DATABASE_URL": settings.DATABASE_URL,
            "FAULTLINE_STATE_DIR": str(tmp_path / "state"),
            "FAULTLINE_RECOVERY_SWEEP_SECONDS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        before = worker_check(env)
        assert before.returncode == 1 and "no worker heartbeat" in before.stdout

        supervisor, output = start_supervisor("worker", "--concurrency", "1", cwd=ROOT, env=env)
        try:
            assert "worker-1: consuming" in wait_until_healthy(env, 90)
            (worker,) = descendants(supervisor, "celery")
            assert f"--hostname faultline-w{supervisor.pid}-1@" in " ".join(worker.cmdline())

            worker.send_signal(signal.SIGKILL)
            output.wait_for("worker exited unexpectedly (exit -9); restarting in 1 s (restart 1)", timeout=30)
            assert "worker-2: consuming" in wait_until_healthy(env, 90)
            (restarted,) = descendants(supervisor, "celery")
            assert restarted.pid != worker.pid and supervisor.poll() is None
        finally:
            supervisor.send_signal(signal.SIGTERM)  # what `docker stop` sends
            supervisor.wait(timeout=60)

        assert supervisor.returncode == 0, output.text
        assert output.text.rstrip().endswith("stopped")
        assert not restarted.is_running() or restarted.status() == psutil.STATUS_ZOMBIE
        assert worker_check(env).returncode == 1  # a worker stopped on purpose leaves no heartbeat behind
