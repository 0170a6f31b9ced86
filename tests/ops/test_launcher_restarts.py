"""A worker killed under `python -m faultline run` is started again while the web stays up; so is
one of the two web processes, while the other answers.

The launcher runs from a copy of what the Docker image gets, configured only by a .env there."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.support.build_context import copy_build_context
from tests.support.supervised import descendants, start_supervisor
from tests.test_launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def healthz_status(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            json.loads(response.read())
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def launcher_environment() -> dict:
    """The environment less anything the launcher should take from the .env under test."""
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("FAULTLINE_") and key not in ("DATABASE_URL", "REDIS_URL")
    }
    return {**kept, "PYTHONUNBUFFERED": "1"}


def test_a_killed_worker_is_restarted_while_the_web_keeps_answering(tmp_path, state_dir):
    app = copy_build_context(ROOT, tmp_path / "app")
    port = free_port()
    (app / ".env").write_text(
        f"FAULTLINE_PORT={port}\nFAULTLINE_STATE_DIR={state_dir}\nFAULTLINE_WORKER_CONCURRENCY=2\nFAULTLINE_WORKER_NICE=6\n"
        "FAULTLINE_LLM=local\nFAULTLINE_WEB_PROCESSES=2\n"
    )
    env = launcher_environment()
    launcher, output = start_supervisor("run", cwd=app, env=env)
    try:
        output.wait_for(f"Faultline is running at http://127.0.0.1:{port}/", timeout=240)  # the port came from .env
        assert healthz_status(port) == 200
        (worker,) = descendants(launcher, "celery")
        assert f"worker started (pid {worker.pid})" in output.text
        webs = descendants(launcher, "daphne")
        assert len(webs) == 2  # FAULTLINE_WEB_PROCESSES=2: two sharing the port
        assert (worker.nice(), {web.nice() for web in webs}) == (6, {0})  # the debates yield the CPU to the pages

        worker.send_signal(signal.SIGKILL)
        statuses = []
        deadline = time.monotonic() + 90
        while not (statuses[-3:] == [200] * 3 and "restarting in" in output.text):
            assert time.monotonic() < deadline, f"{statuses}\n{output.text}"
            statuses.append(healthz_status(port))  # raises if the web server stopped answering
            time.sleep(0.25)

        assert "worker exited unexpectedly (exit -9); restarting in 1 s (restart 1)" in output.text
        assert 503 in statuses  # /healthz noticed the worker was gone, and then that it was back
        assert "shutting down" not in output.text and launcher.poll() is None
        (restarted,) = descendants(launcher, "celery")
        assert restarted.pid != worker.pid
        assert restarted.nice() == 6

        # One web process killed: the other answers every request while the launcher starts it again.
        killed = webs[0]
        name = next(f"web-{i}" for i in (1, 2) if f"web-{i} started (pid {killed.pid})" in output.text)
        killed.send_signal(signal.SIGKILL)
        statuses = []
        deadline = time.monotonic() + 60
        while not (
            f"{name} exited unexpectedly (exit -9)" in output.text and len(descendants(launcher, "daphne")) == 2
        ):
            assert time.monotonic() < deadline, f"{statuses}\n{output.text}"
            statuses.append(healthz_status(port))
            time.sleep(0.2)
        assert statuses and set(statuses) == {200}
        assert killed.pid not in [web.pid for web in descendants(launcher, "daphne")]
        assert "shutting down" not in output.text and launcher.poll() is None

        probe = subprocess.run(
            [sys.executable, "-m", "faultline", "probe", "--port", str(port)],
            cwd=app,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert probe.returncode == 0, probe.stdout + probe.stderr
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=90)

    assert launcher.returncode == 0, output.text
    assert "embedded PostgreSQL stopped cleanly" in output.text
