"""A web process that stops answering is killed and started again by the launcher, and the
launcher's probes ask as the proxy in front does, so a production web process answers them.

Before, a daphne that stopped answering after a SIGTERM but did not exit kept the site down until
someone killed it, and `make run` with FAULTLINE_ENV=production gave up after 60 s: its start-up
check got a 301 to https:// from /healthz."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from ops import web_liveness
from ops.launcher import daphne_command, wait_until_serving
from tests.conftest import ROOT
from tests.conftest import test_database_url as database_url_of
from tests.support.supervised import descendants, start_supervisor
from tests.test_launcher import free_port

pytestmark = pytest.mark.slow
SILENT_SECONDS = 4  # FAULTLINE_WEB_SILENT_SECONDS: 20 by default


def site_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture
def own_database(django_db_setup, django_db_blocker):
    """A database of its own on the suite's PostgreSQL, for a launcher to migrate and seed."""
    from django.conf import settings
    from django.db import connection

    admin_url = database_url_of(connection.settings_dict, settings.DATABASE_URL)
    name = f"liveness_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield urlunsplit(urlsplit(admin_url)._replace(path="/" + name))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_a_web_process_that_stops_answering_is_restarted_and_the_site_answers_again(tmp_path, own_database):
    from django.conf import settings

    port = free_port()
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith("FAULTLINE_")},
        "DATABASE_URL": own_database,
        "REDIS_URL": settings.REDIS_URL,
        "FAULTLINE_STATE_DIR": str(tmp_path / "state"),
        "FAULTLINE_QUEUE": f"liveness-{uuid.uuid4().hex[:8]}",  # no other worker takes its work
        "FAULTLINE_LLM": "local",
        "FAULTLINE_WEB_SILENT_SECONDS": str(SILENT_SECONDS),
        "PYTHONUNBUFFERED": "1",
    }
    launcher, output = start_supervisor("run", "--port", str(port), "--concurrency", "1", cwd=ROOT, env=env)
    try:
        output.wait_for(f"Faultline is running at http://127.0.0.1:{port}/", timeout=240)
        (web,) = descendants(launcher, "daphne")
        assert site_answers(port)
        # The launcher gives a web process START_UP_SECONDS before its probe's first answer and
        # SILENT_SECONDS after: stopped before that first answer (at load, the site can answer
        # before the probe has asked), it would be found after 120 s, not 4.
        time.sleep(2 * web_liveness.probe_seconds(SILENT_SECONDS))

        web.send_signal(signal.SIGSTOP)  # hung: running, answering nothing
        stopped_at = time.monotonic()
        output.wait_for(f"web (pid {web.pid}) has not answered for", timeout=90)
        detected = time.monotonic() - stopped_at
        deadline = time.monotonic() + 120
        while not site_answers(port):
            assert time.monotonic() < deadline, output.text
            time.sleep(0.5)

        limit = SILENT_SECONDS + web_liveness.probe_seconds(SILENT_SECONDS) + web_liveness.ANSWER_WITHIN_SECONDS
        assert detected < limit + 5, f"found after {detected:.0f} s"
        assert "web exited unexpectedly (exit -9); restarting in 1 s" in output.text
        (restarted,) = descendants(launcher, "daphne")
        assert restarted.pid != web.pid and not web.is_running()
        assert web_liveness.LIVENESS_PATH not in output.text  # the probes' access-log lines are not shown
        assert launcher.poll() is None
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=90)
    assert launcher.returncode == 0, output.text


def test_the_start_up_check_and_the_liveness_probe_are_answered_by_a_production_web_process(
    tmp_path, celery_worker_process
):
    from django.conf import settings
    from django.db import connection

    port, own = free_port(), tmp_path / "web.sock"
    env = {
        **os.environ,
        "FAULTLINE_ENV": "production",
        "SECRET_KEY": "a-production-key-for-this-test-only",
        "DATABASE_URL": database_url_of(connection.settings_dict, settings.DATABASE_URL),
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DEBUG", None)
    env.pop("ALLOWED_HOSTS", None)
    web = subprocess.Popen(
        daphne_command(host="127.0.0.1", port=port, unix_socket=own),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # (A 301 to https:// here was "did not answer" after 60 s; the report is /healthz's own.)
        report = wait_until_serving(f"http://127.0.0.1:{port}/healthz", [], timeout=20)
        live = web_liveness.answers(own)
        # What a visitor without the proxy's header gets: the HTTPS redirect the probes avoid.
        with pytest.raises(urllib.error.HTTPError) as redirect:
            urllib.request.build_opener(NoRedirect).open(f"http://127.0.0.1:{port}/healthz", timeout=10)
    finally:
        web.terminate()
        output, _ = web.communicate(timeout=30)

    # The suite's test database fails /healthz's pgvector check here; the rest must be up.
    assert {name: part["ok"] for name, part in report.items() if name in ("redis", "worker")} == {
        "redis": True,
        "worker": True,
    }, output
    assert "database" in report and live
    assert redirect.value.code == 301
    assert "Traceback" not in output, output


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
