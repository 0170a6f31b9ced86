"""`python -m faultline run`: everything Faultline needs, in one supervised foreground process.

It reads `.env` first, exactly as the settings do (the real environment wins), so everything it
decides comes from the same place as the site's own settings: `LaunchConfig` holds all of it.
It starts the embedded PostgreSQL and Redis when DATABASE_URL / REDIS_URL are not set, migrates,
loads the seed deck, then runs daphne (web + websockets) and a Celery worker with prefixed logs.
A child that dies is started again after a growing pause (see `RestartPolicy`), so a crashed
worker does not take the site down. A worker that stops taking work while it still runs (a warm
shutdown nobody asked for: see ops/worker_liveness.py) is replaced at once and left to finish
its debates; a web process that stops answering (ops/web_liveness.py) is killed and started
again. Ctrl-C stops the children, then the services it started, and
leaves nothing running behind it.

`python -m faultline worker` supervises a worker alone, the same way (the worker container of
docker-compose.yml); `worker --check` is its health check.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import tarfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import environ

from ops import backup, connections, embedded, web_liveness, worker_liveness

BASE_DIR = Path(__file__).resolve().parent.parent
DOTENV = BASE_DIR / ".env"
STOP_GRACE_SECONDS = 20
# FAULTLINE_WORKER_NICE: 0, level with the web server and the database. A higher value gave the
# web server and the browsers more of the CPU but held up the worker's own commits more, and made
# the debates slower: benchmarks/README.md, "Live updates", 2026-11-26.
WORKER_NICE = 0
# FAULTLINE_WEB_PROCESSES: daphne processes sharing one listening socket the launcher holds. More
# than one keeps the site answering while a crashed one is restarted; on two cores a second one did
# not make pushes quicker (benchmarks/README.md, "Live updates", 2026-11-26), so one by default.
WEB_PROCESSES = 1


def read_dotenv(path: Path = DOTENV) -> None:
    """Load `.env` into os.environ the way faultline/settings.py does: a variable already set in
    the environment keeps its value. Done before anything is decided, so `.env` counts everywhere."""
    if path.exists():
        environ.Env.read_env(path)


@dataclass(frozen=True)
class LaunchConfig:
    """Everything the launcher decides from the environment (and so from `.env`)."""

    host: str = "127.0.0.1"
    port: int = 8000
    worker_concurrency: int = 8
    worker_nice: int = WORKER_NICE  # above 0, the worker yields the CPU to the web server (lower_priority)
    web_processes: int = WEB_PROCESSES
    state_dir: Path = BASE_DIR / ".faultline"
    database_url: str = ""  # empty: the embedded PostgreSQL
    redis_url: str = ""  # empty: the embedded Redis
    reload: bool = False
    production: bool = False  # FAULTLINE_ENV=production: the static files are collected first

    @classmethod
    def from_environment(cls) -> LaunchConfig:
        env = environ.Env()
        return cls(
            host=env.str("FAULTLINE_HOST", default=cls.host),
            port=env.int("FAULTLINE_PORT", default=cls.port),
            worker_concurrency=env.int("FAULTLINE_WORKER_CONCURRENCY", default=cls.worker_concurrency),
            worker_nice=env.int("FAULTLINE_WORKER_NICE", default=cls.worker_nice),
            web_processes=env.int("FAULTLINE_WEB_PROCESSES", default=cls.web_processes),
            state_dir=embedded.state_dir(),
            database_url=env.str("DATABASE_URL", default=""),
            redis_url=env.str("REDIS_URL", default=""),
            production=env.str("FAULTLINE_ENV", default="development") == "production",
        )

    def describe(self) -> list[str]:
        return [
            f"web:      http://{self.host}:{self.port}/"
            + ("  (autoreload, 1 process)" if self.reload else f"  ({_processes(self.web_processes)})"),
            f"worker:   {self.worker_concurrency} debates at once, nice {self.worker_nice}",
            f"database: {_redacted(self.database_url) if self.database_url else 'embedded PostgreSQL'}",
            f"redis:    {_redacted(self.redis_url) if self.redis_url else 'embedded Redis'}",
            f"state:    {self.state_dir}",
        ]


def _processes(count: int) -> str:
    return "1 process" if count == 1 else f"{count} processes"


def _redacted(url: str) -> str:
    # Enough to recognise the server, never the password.
    scheme, sep, rest = url.partition("://")
    credentials, at, location = rest.rpartition("@")
    if not sep or not at:
        return url
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{location}" if ":" in credentials else url


@dataclass(frozen=True)
class RestartPolicy:
    """How a child that died is started again: after 1 s, 2 s, 4 s ... at most `max_delay`; a
    child that had run for `stable_after` seconds starts the count afresh. With `give_up_after`,
    that many quick deaths in a row stop the launcher instead (a web server that cannot start
    will not fix itself, and the person at the terminal should hear so)."""

    first_delay: float = 1.0
    max_delay: float = 30.0
    stable_after: float = 60.0
    give_up_after: int | None = None

    def delay(self, restart: int) -> float:
        """The pause before restart number `restart` (1, 2, ...) of a run of quick deaths."""
        return min(self.first_delay * 2 ** (restart - 1), self.max_delay)


# The worker is restarted for as long as it takes (the site stays up, /healthz says the worker is
# down). The web server is given five quick tries.
WORKER_RESTARTS = RestartPolicy()
WEB_RESTARTS = RestartPolicy(give_up_after=5)


class LaunchError(Exception):
    """A reason not to start, worded for the person at the terminal."""


def say(message: str, prefix: str = "faultline") -> None:
    print(f"[{prefix:>9}] {message}", flush=True)


@dataclass
class Child:
    name: str
    command: list[str]
    policy: RestartPolicy = RestartPolicy()
    nice: int = 0  # see lower_priority
    # The worker's: a folder where each worker started says whether it still takes work
    # (worker_liveness). "{generation}" in the command becomes 1, 2, ... (a fresh Celery node name
    # for a replacement that runs beside the worker it replaces).
    heartbeats: Path | None = None
    pass_fds: tuple[int, ...] = ()  # the web's: the listening socket its processes share
    # The web's: a Unix socket of its own the launcher asks whether it still answers (web_liveness).
    liveness_socket: Path | None = None
    liveness: web_liveness.Liveness | None = field(default=None, repr=False)
    process: subprocess.Popen | None = None
    pump: threading.Thread | None = field(default=None, repr=False)
    started_at: float = 0.0
    restarts: int = 0  # restarts since it last ran stably
    restart_at: float | None = None
    generation: int = 0
    retiring: list[subprocess.Popen] = field(default_factory=list)  # replaced, finishing their work

    @property
    def heartbeat(self) -> Path | None:
        return None if self.heartbeats is None else self.heartbeats / f"{self.name}-{self.generation}"

    def start(self, env: dict) -> None:
        self.generation += 1
        if self.heartbeat is not None:
            worker_liveness.heartbeat_forget(self.heartbeat)
            env = {**env, worker_liveness.HEARTBEAT_ENV: str(self.heartbeat)}
        command = [part.replace("{generation}", str(self.generation)) for part in self.command]
        if self.liveness_socket is not None:
            self.liveness_socket.parent.mkdir(parents=True, exist_ok=True)
            web_liveness.socket_forget(self.liveness_socket)
        # A session of its own: Ctrl-C reaches only the launcher, which then stops the children
        # in order (worker first, so no debate is cut off mid-write by a vanished web server).
        self.process = subprocess.Popen(
            command,
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            start_new_session=True,
            pass_fds=self.pass_fds,
        )
        lower_priority(self.process.pid, self.nice)
        self.started_at = time.monotonic()
        if self.liveness_socket is not None:
            self.liveness = web_liveness.Liveness(self.liveness_socket)
        self.pump = threading.Thread(target=self._pump, args=(self.process,), daemon=True)
        self.pump.start()
        say(f"{self.name} started (pid {self.process.pid})")

    def supervise(self, env: dict) -> None:
        """Restart the child if it died (after the policy's pause), replace it at once if it stopped
        taking work. Raises LaunchError to give up."""
        self._reap_retiring()
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.restart_at = None
                self.start(env)
            return
        if self.running():
            if self._stopped_taking_work():
                self.retiring.append(self.process)
                self.start(env)
            else:
                self._kill_if_silent()
            return
        self._liveness_stop()
        exit_code = self.process.returncode
        if self.heartbeat is not None:
            worker_liveness.heartbeat_forget(self.heartbeat)  # its last beat may still say "consuming"
        if now - self.started_at >= self.policy.stable_after:
            self.restarts = 0
        self.restarts += 1
        if self.policy.give_up_after is not None and self.restarts > self.policy.give_up_after:
            raise LaunchError(
                f"{self.name} exited unexpectedly (exit {exit_code}) {self.restarts} times in a row, each within "
                f"{self.policy.stable_after:g} s of starting; giving up (see its log lines above)"
            )
        delay = self.policy.delay(self.restarts)
        say(f"{self.name} exited unexpectedly (exit {exit_code}); restarting in {delay:g} s (restart {self.restarts})")
        self.restart_at = now + delay

    def _stopped_taking_work(self) -> bool:
        if self.heartbeat is None:
            return False
        state = worker_liveness.worker_state(self.heartbeat)
        pid = self.process.pid
        if state == worker_liveness.STOPPING:
            say(
                f"{self.name} (pid {pid}) stopped taking work and is shutting down (see its log lines above); "
                "starting another now, the old one finishes the debates it runs"
            )
            return True
        if state == worker_liveness.SILENT:
            say(
                f"{self.name} (pid {pid}) said nothing for {worker_liveness.SILENT_AFTER_SECONDS:g} s; asking it to "
                "stop after its running debates and starting another now"
            )
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)  # Celery's warm shutdown
            return True
        return False

    def _kill_if_silent(self) -> None:
        # Killed, not asked: one that stopped answering after a SIGTERM was still not gone minutes
        # later. The next round finds it dead and restarts it as any crashed child.
        silent = self.liveness.silent() if self.liveness is not None else None
        if silent is None:
            return
        say(f"{self.name} (pid {self.process.pid}) has not answered for {silent:.0f} s; killing it to start another")
        self._liveness_stop()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def _liveness_stop(self) -> None:
        if self.liveness is not None:
            self.liveness.stop()
            self.liveness = None

    def _reap_retiring(self) -> None:
        for process in list(self.retiring):
            if process.poll() is not None:
                say(f"the replaced {self.name} (pid {process.pid}) has finished and exited (exit {process.returncode})")
                self.retiring.remove(process)

    def _pump(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            if web_liveness.LIVENESS_PATH in line:
                continue  # the access log's line for each liveness probe, every few seconds
            say(line.rstrip(), self.name)

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        self.restart_at = None
        self._liveness_stop()
        for process in [self.process, *self.retiring]:
            if process is not None and process.poll() is None:
                _stop_process_group(process, self.name)
        self.retiring = []
        if self.heartbeat is not None:
            # A worker stopped on purpose takes no work, whatever its last beat said.
            worker_liveness.heartbeat_forget(self.heartbeat)
        if self.pump is not None:
            self.pump.join(timeout=2)


def _stop_process_group(process: subprocess.Popen, name: str) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(STOP_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        say(f"{name} (pid {process.pid}) did not stop within {STOP_GRACE_SECONDS} s; killing it")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def lower_priority(pid: int, nice: int) -> None:
    """Run process `pid` (just started, one thread so far) at niceness `nice` against the rest of
    the machine. Threads it starts later inherit it.

    Each child runs in a session of its own, and with the kernel's session autogroups (on by
    default on desktop kernels, `/proc/sys/kernel/sched_autogroup_enabled`) the CPU is shared
    between sessions first: a process's own nice value then only ranks it within its session. So
    both are set, the autogroup's (what counts against daphne, PostgreSQL and other programs)
    and the process's (what counts where autogroups are off, e.g. under systemd). Raising a
    priority needs privileges; lowering one never does, so nice 0 leaves the process alone."""
    if nice <= 0:
        return
    autogroup = Path(f"/proc/{pid}/autogroup")
    with contextlib.suppress(OSError):  # no autogroups in this kernel, or the process already exited
        autogroup.write_text(str(nice))
    with contextlib.suppress(ProcessLookupError):
        os.setpriority(os.PRIO_PROCESS, pid, nice)


def port_is_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def web_listener(host: str, port: int) -> socket.socket:
    """The listening socket every web process accepts from (the kernel hands each connection to
    one of them). Held by the launcher, so a web process that is restarted finds it still open."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(1024)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


def daphne_command(
    *, fd: int | None = None, host: str = "", port: int = 0, unix_socket: Path | None = None
) -> list[str]:
    """Daphne serving Faultline, on an inherited listening socket (``fd``) or binding host:port,
    and on ``unix_socket`` too if given (the launcher's liveness probe asks there)."""
    where = ["--fd", str(fd)] if fd is not None else ["-b", host, "-p", str(port)]
    if unix_socket is not None:
        where += ["-u", str(unix_socket)]
    return [sys.executable, "-m", "daphne", *where, "faultline.asgi:application"]


def prepare_services(env: dict) -> list[str]:
    """Start the embedded services that are needed; return the names of those this run started."""
    started = []
    if not env.get("DATABASE_URL"):
        was_running = embedded.postgres_running()
        say(
            "starting the embedded PostgreSQL (pgvector)"
            if not was_running
            else "using the running embedded PostgreSQL"
        )
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


def server_connection_limits(database_url: str) -> tuple[int, int]:
    """PostgreSQL's (max_connections, superuser_reserved_connections)."""
    import psycopg

    with psycopg.connect(database_url, connect_timeout=10) as conn:
        limit = int(conn.execute("SHOW max_connections").fetchone()[0])
        reserved = int(conn.execute("SHOW superuser_reserved_connections").fetchone()[0])
    return limit, reserved


def check_connection_budget(env: dict, budget: connections.Budget) -> None:
    """Refuse to start what PostgreSQL would refuse connections to ("too many clients") under load."""
    try:
        limit, reserved = server_connection_limits(env["DATABASE_URL"])
    except Exception as exc:  # the server is checked again by migrate, which says what is wrong
        say(f"could not read the database's max_connections ({exc.__class__.__name__}); not checked")
        return
    problem = connections.budget_problem(budget, max_connections=limit, reserved=reserved)
    if problem:
        raise LaunchError(problem)
    say(f"database connections: {budget.lines()}, of {limit - reserved} PostgreSQL allows")


def manage(env: dict, *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    for line in (result.stdout + result.stderr).splitlines():
        say(line, args[0])
    if result.returncode != 0:
        raise LaunchError(f"`manage.py {' '.join(args)}` failed (exit {result.returncode}); see the lines above")


def wait_until_serving(url: str, children: list[Child], timeout: float = 60) -> dict:
    """Wait for /healthz to be all green and return its report.

    The worker usually says hello a second or two after the web server answers, so a 503 is polled
    again until the deadline; only a server that never answers is an error. It asks as `probe`
    does (web_liveness.probe_headers), or production's HTTPS redirect would answer a 301. What is still down at
    the deadline comes back in the report, for the caller to say.
    """
    deadline = time.monotonic() + timeout
    report = None
    request = urllib.request.Request(url, headers=web_liveness.probe_headers())
    while time.monotonic() < deadline:
        for child in children:
            if not child.running():
                raise LaunchError(f"{child.name} exited during start-up (exit {child.process.returncode})")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
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
    return [
        f"{name}: {part.get('detail', 'down')}"
        for name, part in report.items()
        if isinstance(part, dict) and not part.get("ok")
    ]


def watched_paths() -> list[str]:
    """What autoreload watches: every Python package at the top of the repository, and templates."""
    packages = sorted(path.name for path in BASE_DIR.iterdir() if (path / "__init__.py").exists())
    return [*packages, "templates"]


def reloading(command: list[str]) -> list[str]:
    # watchfiles runs the command and restarts it whenever a watched file changes; daphne and
    # Celery have no autoreload of their own.
    return [
        sys.executable,
        "-m",
        "watchfiles",
        "--filter",
        "default",
        "--target-type",
        "command",
        shlex.join(command),
        *watched_paths(),
    ]


def celery_worker_command(*, concurrency: int, hostname: str, loglevel: str = "INFO") -> list[str]:
    """A Celery worker of ours: a pool of threads, one debate per thread (its side work adds its own)."""
    return [
        *(sys.executable, "-m", "celery", "-A", "faultline", "worker", "--pool", "threads"),
        *("--concurrency", str(concurrency), "--loglevel", loglevel, "--hostname", hostname),
    ]


def worker_child(config: LaunchConfig, node: str = "faultline") -> Child:
    """The supervised Celery worker. Each start gets a node name of its own ("{generation}"), so a
    replacement can run beside the worker it replaces while that one finishes its debates."""
    command = celery_worker_command(
        concurrency=config.worker_concurrency, hostname=f"{node}-{{generation}}@{socket.gethostname()}"
    )
    if config.reload:
        command = reloading(command)
    return Child("worker", command, WORKER_RESTARTS, nice=config.worker_nice, heartbeats=heartbeats_dir(config))


def heartbeats_dir(config: LaunchConfig) -> Path:
    return config.state_dir / "heartbeats"


def children_for(config: LaunchConfig, listener: socket.socket | None = None) -> list[Child]:
    """The worker and the web. With a ``listener``, ``config.web_processes`` daphne processes share
    it, each also on a Unix socket of its own for the liveness probe; without one (autoreload:
    watchfiles would not pass it on, and restarts daphne itself), one daphne binds the port."""
    if listener is None:
        web = daphne_command(host=config.host, port=config.port)
        webs = [Child("web", reloading(web) if config.reload else web, WEB_RESTARTS)]
    else:
        fd = listener.fileno()
        count = config.web_processes
        webs = []
        for i in range(1, count + 1):
            name = "web" if count == 1 else f"web-{i}"
            own = config.state_dir / "web" / f"{name}.sock"
            command = daphne_command(fd=fd, unix_socket=own)
            webs.append(Child(name, command, WEB_RESTARTS, pass_fds=(fd,), liveness_socket=own))
    return [worker_child(config), *webs]


def child_environment(config: LaunchConfig) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "faultline.settings",
        "PYTHONUNBUFFERED": "1",
        # Absolute, so every child finds the same state folder whatever its working directory.
        "FAULTLINE_STATE_DIR": str(config.state_dir),
    }


def stop_requested() -> threading.Event:
    """An event set by Ctrl-C or SIGTERM (`docker stop`), for the supervising loop to end on."""
    stopping = threading.Event()

    def request_stop(signum, frame):
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    return stopping


def supervise(children: list[Child], env: dict, stopping: threading.Event) -> None:
    while not stopping.is_set():
        for child in children:
            child.supervise(env)
        stopping.wait(0.5)


def run(config: LaunchConfig) -> int:
    host, port = config.host, config.port
    if config.web_processes < 1:
        raise LaunchError(f"FAULTLINE_WEB_PROCESSES must be 1 or more (it is {config.web_processes})")
    taken = LaunchError(
        f"port {port} on {host} is already taken by another program. "
        f"Stop it, or pick another port: `make run PORT={port + 1}` (or FAULTLINE_PORT={port + 1})."
    )
    listener = None
    if config.reload:
        if not port_is_free(host, port):
            raise taken
    else:
        try:
            listener = web_listener(host, port)
        except OSError:
            raise taken from None
    env = child_environment(config)
    started: list[str] = []
    children = children_for(config, listener)
    stopping = stop_requested()
    exit_code = 0
    try:
        started = prepare_services(env)
        check_connection_budget(
            env,
            connections.budget(web_processes=config.web_processes, worker_concurrency=config.worker_concurrency),
        )
        manage(env, "migrate", "--noinput")
        manage(env, "loadseed")
        if config.production:
            # Production serves the collected files under hashed names (the Docker image collects
            # them when it is built); without them every page is a server error.
            manage(env, "collectstatic", "--noinput")
        for child in children:
            child.start(env)
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
        report = wait_until_serving(url + "healthz", children)
        say(f"Faultline is running at {url}  (Ctrl-C to stop)")
        for problem in not_ready(report):
            say(f"not ready yet, {problem} (see {url}healthz)")
        supervise(children, env, stopping)
    except LaunchError as exc:
        say(f"error: {exc}")
        exit_code = 1
    finally:
        say("stopping...")
        for child in children:
            child.stop()
        if listener is not None:
            listener.close()
        stop_services(started)
        say("stopped")
    return exit_code


def run_worker(config: LaunchConfig) -> int:
    """`python -m faultline worker`: only the Celery worker, supervised as `run` supervises it
    (restarted after a crash, replaced at once when it stops taking work). For a container of its
    own (docker-compose.yml), or more workers beside a running `run`. The web and the migrations
    are someone else's; the embedded services are started if no URL is set, as `run` does."""
    env = child_environment(config)
    started: list[str] = []
    # The supervisor's pid in the node name: two supervisors on one host never share a name.
    child = worker_child(config, node=f"faultline-w{os.getpid()}")
    stopping = stop_requested()
    exit_code = 0
    try:
        started = prepare_services(env)
        # This worker's share (the web and the migrations are someone else's, with their own).
        check_connection_budget(env, connections.budget(web_processes=0, worker_concurrency=config.worker_concurrency))
        child.start(env)
        say(f"supervising the worker ({config.worker_concurrency} debates at once; Ctrl-C to stop)")
        supervise([child], env, stopping)
    except LaunchError as exc:
        say(f"error: {exc}")
        exit_code = 1
    finally:
        say("stopping...")
        child.stop()
        stop_services(started)
        say("stopped")
    return exit_code


def worker_check(config: LaunchConfig) -> int:
    """The worker container's health check: 0 when a worker started in this state folder says it
    takes work (its heartbeat, written every half second), 1 otherwise. While a replacement starts
    beside a worker that stopped taking work, neither does for a few seconds; the check's retries
    cover that. A heartbeat left by an earlier life of the container is silent, so it never counts."""
    folder = heartbeats_dir(config)
    beats = sorted(path for path in folder.glob("*") if not path.name.endswith(".partial")) if folder.is_dir() else []
    states = {path.name: worker_liveness.worker_state(path) for path in beats}
    print(", ".join(f"{name}: {state}" for name, state in states.items()) or f"no worker heartbeat in {folder}")
    return 0 if worker_liveness.CONSUMING in states.values() else 1


def probe(port: int) -> int:
    """The container health check: 0 when /healthz on this machine answers 200.

    It asks as the proxy in front would: for the first allowed host, over HTTPS as far as Django
    can tell, so production's host check and HTTPS redirect do not get in the way."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers=web_liveness.probe_headers())
    try:
        with urllib.request.urlopen(request, timeout=8) as response:
            return 0 if response.status == 200 else 1
    except urllib.error.HTTPError as error:
        print(f"/healthz answered {error.code}: {error.read(500).decode(errors='replace')}")
    except OSError as error:
        print(f"/healthz did not answer: {error}")
    return 1


def backup_or_restore(args) -> int:
    try:
        if args.command == "backup":
            manifest = backup.backup(args.path)
            say(
                f"backed up {manifest['debates'] or 0} debates and {', '.join(manifest['state']) or 'no'} state to {args.path}"
            )
        else:
            manifest = backup.restore(args.path, replace=args.replace)
            say(f"restored {manifest['debates'] or 0} debates (backed up {manifest['created']}) from {args.path}")
    except (backup.BackupError, embedded.EmbeddedServiceError, OSError, tarfile.TarError) as exc:
        say(f"error: {exc}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> None:
    read_dotenv()
    defaults = LaunchConfig.from_environment()
    parser = argparse.ArgumentParser(prog="faultline", description="Run Faultline and the services it needs.")
    commands = parser.add_subparsers(dest="command")
    run_parser = commands.add_parser("run", help="start services, migrate, load the seed deck, serve (default)")
    run_parser.add_argument("--host", default=defaults.host, help="FAULTLINE_HOST")
    run_parser.add_argument("--port", type=int, default=defaults.port, help="FAULTLINE_PORT")
    run_parser.add_argument(
        "--concurrency",
        type=int,
        default=defaults.worker_concurrency,
        help="debates the worker runs at once (FAULTLINE_WORKER_CONCURRENCY)",
    )
    run_parser.add_argument("--reload", action="store_true", help="restart web and worker when code changes")
    worker_parser = commands.add_parser(
        "worker", help="only a supervised Celery worker (restarted when it crashes or stops taking work)"
    )
    worker_parser.add_argument(
        "--concurrency",
        type=int,
        default=defaults.worker_concurrency,
        help="debates the worker runs at once (FAULTLINE_WORKER_CONCURRENCY)",
    )
    worker_parser.add_argument(
        "--check",
        action="store_true",
        help="exit 0 when a worker of this state folder takes work (the container's health check)",
    )
    commands.add_parser("config", help="show what `run` would use, from the environment and .env")
    commands.add_parser("stop", help="stop the embedded PostgreSQL and Redis of this state folder")
    probe_parser = commands.add_parser("probe", help="exit 0 when /healthz on this machine is all green")
    probe_parser.add_argument("--port", type=int, default=defaults.port)
    backup_parser = commands.add_parser("backup", help="the database and the state beside it, in one .tar.gz")
    backup_parser.add_argument("path", type=Path, help="the file to write, e.g. faultline-2026-12-07.tar.gz")
    restore_parser = commands.add_parser("restore", help="read a backup back (into a fresh state folder)")
    restore_parser.add_argument("path", type=Path, help="a file `backup` wrote")
    restore_parser.add_argument(
        "--replace", action="store_true", help="overwrite a database that already holds Faultline's tables"
    )
    args = parser.parse_args(argv)

    if args.command == "stop":
        stopped = embedded.stop_all()
        say("stopped " + ", ".join(stopped) if stopped else "no embedded service was running")
        return
    if args.command == "probe":
        sys.exit(probe(args.port))
    if args.command in ("backup", "restore"):
        sys.exit(backup_or_restore(args))
    config = defaults
    if args.command == "run":
        config = dataclasses.replace(
            defaults, host=args.host, port=args.port, worker_concurrency=args.concurrency, reload=args.reload
        )
    if args.command == "worker":
        config = dataclasses.replace(defaults, worker_concurrency=args.concurrency)
        if args.check:
            sys.exit(worker_check(config))
    if args.command == "config":
        for line in config.describe():
            print(line)
        return
    try:
        sys.exit(run_worker(config) if args.command == "worker" else run(config))
    except (LaunchError, embedded.EmbeddedServiceError) as exc:
        say(f"error: {exc}")
        sys.exit(1)
