"""A live Faultline for the browser tests: daphne serving the pytest-django test database (the
real Celery worker and its scripted fake Anthropic API come from tests/conftest.py), and Debian's
chromium driven by Playwright. Nothing is downloaded: if chromium is missing the tests fail and
say how to get it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import ROOT, log_path, test_database_url, test_worker_hostname

ARTIFACTS = ROOT / "artifacts"
SCREENSHOTS = ARTIFACTS / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def chromium_path() -> str:
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if Path(path).exists():
        return path
    message = (
        "Debian's chromium is needed for the browser tests and is not installed: "
        "run `apt-get install chromium` (as root; `make test` does it for you)."
    )
    # Skipping must be asked for, and never in CI: a browser test that quietly does not run is
    # worse than one that fails.
    if os.environ.get("FAULTLINE_SKIP_BROWSER") and not (
        os.environ.get("CI") == "true" or os.environ.get("FAULTLINE_REQUIRE_BROWSER")
    ):
        pytest.skip(message + " (skipped because FAULTLINE_SKIP_BROWSER is set)")
    pytest.fail(message, pytrace=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def hostile_model(worker_debate_script):
    """Make the test worker's scripted model slip <script> and onerror payloads into some turns,
    its crux cards and their diagnoses (see devtools/scripted_debate.py)."""
    worker_debate_script.hostile = True
    yield worker_debate_script
    worker_debate_script.hostile = False


@pytest.fixture
def streaming_model(worker_debate_script):
    """The test worker's scripted model streams at a model's pace (8 characters every 40 ms, after
    50 ms), for a test that watches a message arrive piece by piece; it answers at once otherwise."""
    script = worker_debate_script
    script.latency, script.chunk_size, script.chunk_delay = 0.05, 8, 0.04
    yield script
    script.latency, script.chunk_size, script.chunk_delay = 0.0, 12, 0.0


@pytest.fixture(scope="session")
def live_server_url(django_db_setup, django_db_blocker, worker_messages_api, tmp_path_factory):
    """daphne (HTTP and websockets, the production ASGI app) on a free localhost port."""
    from django.conf import settings
    from django.db import connection

    port = _free_port()
    env = {
        **os.environ,
        # The web process calls no model, but records which provider a debate's text comes from.
        "FAULTLINE_LLM": "anthropic",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": worker_messages_api.url,
        "DATABASE_URL": test_database_url(connection.settings_dict, settings.DATABASE_URL),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        # The tests' own folders (each test's tmp_path is under it) are where local repositories are.
        "FAULTLINE_REPOSITORY_ROOTS": str(tmp_path_factory.getbasetemp()),
        # As in production: the site's own error pages, each with its Content-Security-Policy.
        "DEBUG": "0",
        # As the shared worker: a batch is looked at every second, so its page looks every 2 s.
        "FAULTLINE_BATCH_POLL_SECONDS": "1",
    }
    log = open(log_path("test-daphne"), "w")
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "faultline.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # two xdist workers start theirs together, maybe on a loaded machine
    while True:
        try:
            with urllib.request.urlopen(url + "/accounts/login/", timeout=2) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise RuntimeError(f"daphne did not start; see {log.name}")
        time.sleep(0.25)
    yield url
    server.terminate()
    try:
        server.wait(15)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


@pytest.fixture
def browser():
    """Headless chromium (Debian's). Function-scoped, so each test starts clean."""
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on this thread: Django refuses ORM calls here
    # while it runs, so tests do their database work through ``server_side``.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def server_side(request):
    """Runs a function on a thread of its own and returns its result.

    Playwright's sync API keeps an event loop on the test's thread, where async_to_sync (which
    every broadcast uses) refuses to run; database writes that broadcast go through here. At the
    end of a test that had the shared worker, the debates it left going are stopped first."""
    from django.db import connections

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="server-side")

    def call(function, *args, **kwargs):
        return executor.submit(function, *args, **kwargs).result(timeout=120)

    yield call
    if "celery_worker_process" in request.fixturenames:
        executor.submit(_runs_let_go).result(timeout=RUNS_LET_GO_SECONDS + 10)
    executor.submit(connections.close_all).result()
    executor.shutdown()


RUNS_LET_GO_SECONDS = 60


def _runs_let_go() -> None:
    """Ask every debate still going to stop, and wait until each has ended and the worker runs no
    task: the test's database is flushed next (TRUNCATE), and a worker still writing then
    deadlocks with it (CI, 2026-11-27, twice: test_crux_atlas ends by starting a rerun, and a
    rerun still queued when it was stopped is run, to finish as stopped, after the stop)."""
    from django.core.exceptions import ValidationError

    from debates.models import Debate
    from debates.services.leases import debate_is_being_run
    from debates.services.lifecycle import debate_stop
    from faultline.celery import app as celery_app

    going = list(Debate.objects.filter(status__in=[Debate.Status.PENDING, Debate.Status.RUNNING]))
    for debate in going:
        with contextlib.suppress(ValidationError):  # it ended meanwhile
            debate_stop(debate=debate)

    def still_going(debate) -> bool:
        unfinished = Debate.objects.filter(pk=debate.pk, status__in=[Debate.Status.PENDING, Debate.Status.RUNNING])
        return debate_is_being_run(debate_id=debate.pk) or unfinished.exists()

    def worker_busy() -> bool:
        active = celery_app.control.inspect(destination=[test_worker_hostname()], timeout=1).active() or {}
        return any(active.values())

    deadline = time.monotonic() + RUNS_LET_GO_SECONDS
    while (any(still_going(debate) for debate in going) or worker_busy()) and time.monotonic() < deadline:
        time.sleep(0.2)


# The site's Content-Security-Policy forbids eval: Playwright evaluates a wait_for_function
# *expression* with eval inside the page, so the tests pass functions ("() => ...") instead.


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1360, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A console error is one too: a resource that failed to load (a 404 included), a refused style.
    page.on("console", lambda message: errors.append(f"console: {message.text}") if message.type == "error" else None)
    page.on("dialog", lambda dialog: (errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.js_errors = errors
    yield page
    context.close()


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, *, full_page: bool = False) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
