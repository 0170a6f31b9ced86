"""Is a web process still answering? What the launcher asks each one every few seconds.

A daphne process can stop answering while it still runs: after a SIGTERM one stopped serving but
never exited, and one that is stopped or stuck in a blocking call answers nothing either. A
supervisor that only restarts dead processes then leaves the site down until someone kills it.

So each web process the launcher starts also listens on a Unix socket of its own (the public port
is shared by every web process, so a request there cannot pick one), and a thread in the launcher
asks it ``GET /healthz?live`` every few seconds: the process's own answer, without the
database, Redis and worker checks of a full /healthz (a database that is down is no reason to kill
the web server). One that has given no answer for ``FAULTLINE_WEB_SILENT_SECONDS`` (20 by default;
``START_UP_SECONDS`` before its first) is killed and started again by the launcher, as the worker is
when it stops taking work (ops/worker_liveness.py).

The probe asks as the proxy in front would (``probe_headers``): for an allowed host, over HTTPS as
far as Django can tell, so production's host check and HTTPS redirect answer it as they answer
the site's visitors.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import threading
import time
from pathlib import Path

import environ

LIVENESS_PATH = "/healthz?live"
PROBE_SECONDS = 3.0  # at most; four probes at least within the silence that counts
ANSWER_WITHIN_SECONDS = 10.0
SILENT_AFTER_SECONDS = 20.0
START_UP_SECONDS = 120.0  # importing Django and the apps on a busy machine


def silent_after_seconds() -> float:
    """How long a web process may give no answer before it is killed and started again."""
    env = environ.Env()
    return env.float("FAULTLINE_WEB_SILENT_SECONDS", default=SILENT_AFTER_SECONDS)


def probe_seconds(silent_after: float) -> float:
    return min(PROBE_SECONDS, silent_after / 4)


def probe_headers() -> dict[str, str]:
    """What the launcher's and the container's probes send: the first allowed host, and HTTPS as
    the proxy in front says it (SECURE_PROXY_SSL_HEADER), so production neither refuses the host
    nor redirects the probe to https://."""
    hosts = [host for host in environ.Env().list("ALLOWED_HOSTS", default=["localhost"]) if host not in ("*", "")]
    return {"Host": (hosts[0] if hosts else "localhost").lstrip("."), "X-Forwarded-Proto": "https"}


class _UnixHTTPConnection(http.client.HTTPConnection):
    def __init__(self, path: Path, timeout: float):
        super().__init__("localhost", timeout=timeout)
        self._path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self._path)


def answers(path: Path, *, timeout: float = ANSWER_WITHIN_SECONDS) -> bool:
    """Does the web process listening on the Unix socket ``path`` answer an HTTP request? Any
    status counts: this asks whether the process serves, not whether the site is healthy."""
    connection = _UnixHTTPConnection(path, timeout)
    try:
        connection.request("GET", LIVENESS_PATH, headers=probe_headers())
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


class Liveness:
    """Asks one web process, on a thread of its own, whether it answers; ``silent()`` says when it
    has not for too long. One per start of the process."""

    def __init__(self, path: Path):
        self.path = path
        self.silent_after = silent_after_seconds()
        self.started_at = time.monotonic()
        self.last_answer: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._ask, name=f"liveness-{path.stem}", daemon=True)
        self._thread.start()

    def _ask(self) -> None:
        while not self._stop.wait(probe_seconds(self.silent_after)):
            if answers(self.path):
                self.last_answer = time.monotonic()

    def silent(self, now: float | None = None) -> float | None:
        """How long the process has not answered, once that is too long; None while it is fine."""
        now = time.monotonic() if now is None else now
        if self.last_answer is None:
            waited = now - self.started_at
            return waited if waited > START_UP_SECONDS else None
        waited = now - self.last_answer
        return waited if waited > self.silent_after else None

    def stop(self) -> None:
        self._stop.set()


def socket_forget(path: Path) -> None:
    """A socket left by a process that was killed: daphne cannot listen where the file exists."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
