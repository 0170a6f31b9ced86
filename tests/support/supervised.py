"""Helpers for tests that run Faultline's supervisors (`python -m faultline run`, `... worker`)."""

import contextlib
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

from ops import embedded


class LauncherOutput:
    """Collects the launcher's lines on a thread, so the test can poll the site meanwhile."""

    def __init__(self, process: subprocess.Popen):
        self.process = process
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process):
        for line in process.stdout:
            self.lines.append(line)

    def wait_for(self, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert self.process.poll() is None or self._thread.is_alive(), f"launcher exited:\n{self.text}"
            assert time.monotonic() < deadline, f"no {text!r} in:\n{self.text}"
            time.sleep(0.1)

    @property
    def text(self) -> str:
        return "".join(self.lines)


@contextlib.contextmanager
def private_redis(state_dir: Path):
    """An embedded Redis of its own (the suite's is shared), stopped at the end."""
    previous = os.environ.get("FAULTLINE_STATE_DIR")
    os.environ["FAULTLINE_STATE_DIR"] = str(state_dir)
    try:
        yield embedded.redis_url()
    finally:
        embedded.redis_stop()
        if previous is None:
            del os.environ["FAULTLINE_STATE_DIR"]
        else:
            os.environ["FAULTLINE_STATE_DIR"] = previous


def start_supervisor(*args: str, cwd: Path, env: dict) -> tuple[subprocess.Popen, LauncherOutput]:
    """`python -m faultline <args>` (run, worker) with its output collected on a thread."""
    process = subprocess.Popen(
        [sys.executable, "-m", "faultline", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return process, LauncherOutput(process)


def descendants(process: subprocess.Popen, program: str) -> list[psutil.Process]:
    """The supervisor's descendants whose command line names ``program`` (celery, daphne)."""
    return [
        child for child in psutil.Process(process.pid).children(recursive=True) if program in " ".join(child.cmdline())
    ]
