"""`python -m faultline run` on a fresh state folder: services up, all green, clean stop."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from ops import embedded

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def launcher_env(state_dir: Path) -> dict:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "REDIS_URL"}}
    return {**env, "FAULTLINE_STATE_DIR": str(state_dir), "FAULTLINE_LLM": "local", "PYTHONUNBUFFERED": "1"}


def health(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def processes_using(state_dir: Path) -> list[psutil.Process]:
    found = []
    for process in psutil.process_iter(["cmdline"]):
        try:
            if any(str(state_dir) in part for part in process.info["cmdline"] or []):
                found.append(process)
        except psutil.Error:
            continue
    return found


def test_it_starts_everything_and_stops_cleanly_on_ctrl_c(state_dir):
    state = state_dir
    port = free_port()
    launcher = subprocess.Popen(
        [sys.executable, "-m", "faultline", "run", "--port", str(port), "--concurrency", "2"],
        cwd=ROOT,
        env=launcher_env(state),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = []
    try:
        deadline = time.monotonic() + 240
        while not any("Faultline is running at" in line for line in output):
            line = launcher.stdout.readline()
            assert line or launcher.poll() is None, "launcher exited:\n" + "".join(output)
            output.append(line)
            assert time.monotonic() < deadline, "".join(output)
        assert f"http://127.0.0.1:{port}/" in output[-1]

        # it announces the URL once everything is green, and start-up probes are no server errors
        status, report = health(f"http://127.0.0.1:{port}/healthz")
        assert status == 200, report
        assert not any("not ready yet" in line or "Service Unavailable" in line for line in output), "".join(output)
        assert all(part["ok"] for name, part in report.items() if name != "ok")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/admin/login/") as response:
            assert response.status == 200
        children = psutil.Process(launcher.pid).children(recursive=True)
        assert children
    finally:
        launcher.send_signal(signal.SIGINT)
        rest, _ = launcher.communicate(timeout=90)
        output.append(rest)

    text = "".join(output)
    assert launcher.returncode == 0, text
    assert "embedded PostgreSQL stopped cleanly" in text and "embedded Redis stopped" in text
    assert [line for line in text.splitlines() if line.startswith("[      web]")]
    assert [line for line in text.splitlines() if line.startswith("[   worker]")]
    assert not any(child.is_running() and child.status() != psutil.STATUS_ZOMBIE for child in children)
    assert not processes_using(state)
    os.environ["FAULTLINE_STATE_DIR"], previous = str(state), os.environ.get("FAULTLINE_STATE_DIR")
    try:
        assert not embedded.postgres_running() and not embedded.redis_running()
    finally:
        if previous is None:
            del os.environ["FAULTLINE_STATE_DIR"]
        else:
            os.environ["FAULTLINE_STATE_DIR"] = previous
    # A clean shutdown leaves a clean cluster: the next start needs no crash recovery.
    log = (state / "pgdata" / "log").read_text()
    assert "database system is shut down" in log


def test_it_says_clearly_when_the_port_is_taken(state_dir):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]

        result = subprocess.run(
            [sys.executable, "-m", "faultline", "run", "--port", str(port)],
            cwd=ROOT,
            env=launcher_env(state_dir),
            capture_output=True,
            text=True,
            timeout=60,
        )

    assert result.returncode == 1
    assert f"port {port} on 127.0.0.1 is already taken by another program" in result.stdout
    assert not processes_using(state_dir)
