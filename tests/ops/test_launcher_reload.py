"""`make dev` (`python -m faultline run --reload`): a code change restarts the web server and the worker."""

import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from tests.ops.test_launcher_restarts import healthz_status, launcher_environment
from tests.support.build_context import copy_build_context
from tests.support.supervised import start_supervisor
from tests.test_launcher import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def answers_green(port: int) -> bool:
    try:
        return healthz_status(port) == 200
    except OSError:  # between the old web server stopping and the new one listening
        return False


def running(launcher: subprocess.Popen, module: str) -> list[int]:
    """Pids of the launcher's descendants started as `python -m <module>`."""
    found = []
    for child in psutil.Process(launcher.pid).children(recursive=True):
        try:
            if child.cmdline()[1:3] == ["-m", module]:
                found.append(child.pid)
        except psutil.Error:
            continue
    return found


def test_a_code_change_restarts_web_and_worker(tmp_path, state_dir):
    app = copy_build_context(ROOT, tmp_path / "app")
    port = free_port()
    (app / ".env").write_text(f"FAULTLINE_PORT={port}\nFAULTLINE_STATE_DIR={state_dir}\nFAULTLINE_LLM=local\n")
    launcher, output = start_supervisor("run", "--reload", "--concurrency", "1", cwd=app, env=launcher_environment())
    try:
        output.wait_for("Faultline is running at", timeout=240)
        web, worker = running(launcher, "daphne"), running(launcher, "celery")
        assert len(web) == 1 and len(worker) == 1, output.text

        (app / "faultline" / "changed_by_a_test.py").write_text("CHANGED = True\n")

        deadline = time.monotonic() + 90
        while not (
            running(launcher, "daphne") not in ([], web)
            and running(launcher, "celery") not in ([], worker)
            and answers_green(port)
        ):
            assert time.monotonic() < deadline, output.text
            time.sleep(0.5)
        assert "1 change detected" in output.text, output.text  # watchfiles says why it restarted
        assert launcher.poll() is None
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=90)

    assert launcher.returncode == 0, output.text
