"""The processes a whole-process benchmark starts (daphne, workers, clients): each in a session
of its own, so a SIGKILL or Ctrl-C reaches only it, and the benchmark stops them in order."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Child:
    def __init__(self, name: str, command: list[str], env: dict, log_dir: Path, pass_fds: tuple[int, ...] = ()) -> None:
        self.name = name
        self.log_path = log_dir / f"{name}.log"
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            pass_fds=pass_fds,
        )

    def running(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no warm shutdown, no acks, no lease released by hand (PostgreSQL releases it)."""
        if self.running():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()

    def stop(self) -> None:
        if self.running():
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if not self.log.closed:
            self.log.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, child: Child, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            pass
        if not child.running() or time.monotonic() > deadline:
            raise RuntimeError(f"{child.name} did not start; see {child.log_path}")
        time.sleep(0.25)


def embedded_services_running() -> dict[str, bool]:
    """Which embedded services were up before the benchmark's django.setup() (which starts them)."""
    from ops import embedded

    return {"postgres": embedded.postgres_running(), "redis": embedded.redis_running()}


def stop_embedded_services_started(had: dict[str, bool]) -> list[str]:
    """Stop the embedded services this benchmark started (not ones already up, nor external ones
    named by REDIS_URL/DATABASE_URL); returns their names."""
    from ops import embedded

    stopped = []
    if not had["redis"] and not os.environ.get("REDIS_URL") and embedded.redis_stop():
        stopped.append("redis")
    if not had["postgres"] and not os.environ.get("DATABASE_URL") and embedded.postgres_stop():
        stopped.append("postgres")
    return stopped
