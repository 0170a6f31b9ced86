"""`python -m faultline run`: everything Faultline needs, in one supervised foreground process.

It starts the embedded PostgreSQL and Redis when DATABASE_URL / REDIS_URL are not set, migrates,
loads the seed deck, then runs daphne (web + websockets) and a Celery worker with prefixed logs.
Ctrl-C stops the children, then the services it started, and leaves nothing running behind it.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from faultline import embedded

BASE_DIR = Path(__file__).resolve().parent.parent
STOP_GRACE_SECONDS = 20


class LaunchError(Exception):
    """A reason not to start, worded for the person at the terminal."""


def say(message: str, prefix: str = "faultline") -> None:
    print(f"[{prefix:>9}] {message}", flush=True)


@dataclass
class Child:
    name: str
    command: list[str]
    process: subprocess.Popen | None = None
    pump: threading.Thread | None = field(default=None, repr=False)

    def start(self, env: dict) -> None:
        # A session of its own: Ctrl-C reaches only the launcher, which then stops the children
        # in order (worker first, so no debate is cut off mid-write by a vanished web server).
        self.process = subprocess.Popen(
            self.command,
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,
        )
        self.pump = threading.Thread(target=self._pump, daemon=True)
        self.pump.start()

    def _pump(self) -> None:
        for line in self.process.stdout:
            say(line.rstrip(), self.name)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if not self.running():
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(STOP_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            say(f"{self.name} did not stop within {STOP_GRACE_SECONDS} s; killing it")
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        if self.pump is not None:
            self.pump.join(timeout=2)


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def prepare_services(env: dict) -> list[str]:
    """Start the embedded services that are needed; return the names of those this run started."""
    started = []
    if not env.get("DATABASE_URL"):
        was_running = embedded.postgres_running()
        say("starting the embedded PostgreSQL (pgvector)" if not was_running else "using the running embedded PostgreSQL")
        env["DATABASE_URL"] = embedded.postgres_url()
        if not was_running:
            started.append("postgres")
    if not env.get("REDIS_URL"):
        was_running = embedded.redis_running()
        say("starting the embedded Redis" if not was_running else "using the running embedded Redis")
        env["REDIS_URL"] = embedded.redis_url()
        if not was_running:
            started.append("redis")
    return started


def stop_services(started: list[str]) -> None:
    if "redis" in started and embedded.redis_stop():
        say("embedded Redis stopped")
    if "postgres" in started and embedded.postgres_stop():
        say("embedded PostgreSQL stopped cleanly")


def manage(env: dict, *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    for line in (result.stdout + result.stderr).splitlines():
        say(line, args[0])
    if result.returncode != 0:
        raise LaunchError(f"`manage.py {' '.join(args)}` failed (exit {result.returncode}); see the lines above")


def wait_until_serving(url: str, children: list[Child], timeout: float = 60) -> dict:
    """Wait for /healthz to be all green and return its report.

    The worker usually says hello a second or two after the web server answers, so a 503 is polled
    again until the deadline; only a server that never answers is an error. What is still down at
    the deadline comes back in the report, for the caller to say.
    """
    deadline = time.monotonic() + timeout
    report = None
    while time.monotonic() < deadline:
        for child in children:
            if not child.running():
                raise LaunchError(f"{child.name} exited during start-up (exit {child.process.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            report = json.loads(error.read() or b"{}") if error.code == 503 else {"ok": False}
        except OSError:
            pass
        time.sleep(0.5)
    if report is None:
        raise LaunchError(f"the web server did not answer on {url} within {timeout:.0f} s")
    return report


def not_ready(report: dict) -> list[str]:
    return [f"{name}: {part.get('detail', 'down')}" for name, part in report.items()
            if isinstance(part, dict) and not part.get("ok")]


def run(host: str, port: int, concurrency: int) -> int:
    if not port_is_free(host, port):
        raise LaunchError(
            f"port {port} on {host} is already taken by another program. "
            f"Stop it, or pick another port: `make run PORT={port + 1}` (or FAULTLINE_PORT={port + 1})."
        )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "faultline.settings", "PYTHONUNBUFFERED": "1"}
    started: list[str] = []
    children = [
        Child("worker", [sys.executable, "-m", "celery", "-A", "faultline", "worker", "--loglevel", "INFO",
                         "--pool", "threads", "--concurrency", str(concurrency), "--hostname", f"faultline@{socket.gethostname()}"]),
        Child("web", [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "faultline.asgi:application"]),
    ]
    stopping = threading.Event()

    def request_stop(signum, frame):
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    exit_code = 0
    try:
        started = prepare_services(env)
        manage(env, "migrate", "--noinput")
        manage(env, "loadseed")
        for child in children:
            child.start(env)
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
        report = wait_until_serving(url + "healthz", children)
        say(f"Faultline is running at {url}  (Ctrl-C to stop)")
        for problem in not_ready(report):
            say(f"not ready yet, {problem} (see {url}healthz)")
        while not stopping.is_set():
            crashed = [child for child in children if not child.running()]
            if crashed:
                say(f"{crashed[0].name} exited unexpectedly (exit {crashed[0].process.returncode}); shutting down")
                exit_code = 1
                break
            stopping.wait(0.5)
    except LaunchError as exc:
        say(f"error: {exc}")
        exit_code = 1
    finally:
        say("stopping...")
        for child in children:
            child.stop()
        stop_services(started)
        say("stopped")
    return exit_code


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="faultline", description="Run Faultline and the services it needs.")
    commands = parser.add_subparsers(dest="command")
    run_parser = commands.add_parser("run", help="start services, migrate, load the seed deck, serve (default)")
    run_parser.add_argument("--host", default=os.environ.get("FAULTLINE_HOST", "127.0.0.1"))
    run_parser.add_argument("--port", type=int, default=int(os.environ.get("FAULTLINE_PORT", "8000")))
    run_parser.add_argument("--concurrency", type=int, default=int(os.environ.get("FAULTLINE_WORKER_CONCURRENCY", "8")),
                            help="debates the worker runs at once")
    commands.add_parser("stop", help="stop the embedded PostgreSQL and Redis of this state folder")
    args = parser.parse_args(argv)

    if args.command == "stop":
        stopped = embedded.stop_all()
        say("stopped " + ", ".join(stopped) if stopped else "no embedded service was running")
        return
    host = getattr(args, "host", os.environ.get("FAULTLINE_HOST", "127.0.0.1"))
    port = getattr(args, "port", int(os.environ.get("FAULTLINE_PORT", "8000")))
    concurrency = getattr(args, "concurrency", int(os.environ.get("FAULTLINE_WORKER_CONCURRENCY", "8")))
    try:
        sys.exit(run(host, port, concurrency))
    except (LaunchError, embedded.EmbeddedServiceError) as exc:
        say(f"error: {exc}")
        sys.exit(1)
