"""A connection budget instead of "too many clients": every process takes its connections from a
pool sized to its budget (ops/connections.py), the launcher checks the budget against the
server's max_connections before it starts anything, and a thread that finds its pool empty
waits, saying so, rather than failing. benchmarks/live_latency.py at ten debates is the load test."""

import logging
import os
import signal
import subprocess
import sys
import threading

import pytest
from django.db import connection, connections

from faultline import database
from ops import connections as budget
from tests.conftest import ROOT
from tests.test_launcher import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_connection_of_the_web_process_comes_from_a_pool_of_its_budget():
    connection.ensure_connection()

    assert isinstance(connection.pool, database.base.WaitingPool)
    assert connection.pool.max_size == budget.WEB_POOL


def test_the_default_deployment_fits_the_servers_max_connections_with_headroom():
    with connection.cursor() as cursor:
        cursor.execute("SHOW max_connections")
        (limit,) = cursor.fetchone()
        cursor.execute("SHOW superuser_reserved_connections")
        (reserved,) = cursor.fetchone()
    default = budget.budget(web_processes=1, worker_concurrency=8)

    assert budget.budget_problem(default, max_connections=int(limit), reserved=int(reserved)) is None


def test_the_launcher_refuses_a_budget_past_the_servers_max_connections(tmp_path):
    from django.conf import settings

    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("FAULTLINE_")},
        "DATABASE_URL": settings.DATABASE_URL,
        "REDIS_URL": settings.REDIS_URL,
        "FAULTLINE_STATE_DIR": str(tmp_path / "state"),
        "FAULTLINE_WORKER_CONCURRENCY": "200",
    }

    launcher = subprocess.Popen(
        [sys.executable, "-m", "faultline", "run", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = launcher.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # it started everything: stop all of it
        os.killpg(launcher.pid, signal.SIGINT)
        output, _ = launcher.communicate(timeout=90)
    launched = subprocess.CompletedProcess(launcher.args, launcher.returncode, output)

    assert launched.returncode == 1
    assert "The database connection budget (" in launched.stdout
    assert "raise max_connections or lower FAULTLINE_WORKER_CONCURRENCY" in launched.stdout


@pytest.fixture
def small_pool(settings, monkeypatch):
    """The default database's pool, made anew with room for two connections."""
    monkeypatch.setattr(database.base, "POOL_WAIT_LOG_SECONDS", 0.3)
    connections.close_all()
    connection.close_pool()
    pool = dict(settings.DATABASES["default"]["OPTIONS"]["pool"], max_size=2, min_size=1)
    settings.DATABASES["default"]["OPTIONS"]["pool"] = pool
    connections["default"].settings_dict["OPTIONS"]["pool"] = pool
    yield
    connections.close_all()
    connection.close_pool()


def test_a_thread_that_finds_the_pool_empty_waits_with_a_log_line_and_does_not_fail(small_pool, caplog):
    answers, errors = [], []

    def hold_a_connection():
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_sleep(1), 1")
                answers.append(cursor.fetchone()[1])
        except Exception as exc:  # noqa: BLE001 (what the test is about)
            errors.append(exc)
        finally:
            connection.close()  # back to the pool

    with caplog.at_level(logging.WARNING, logger="faultline.database.base"):
        threads = [threading.Thread(target=hold_a_connection) for _ in range(5)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)

    assert errors == [] and answers == [1] * 5
    assert any("connections are lent out" in record.getMessage() for record in caplog.records)
