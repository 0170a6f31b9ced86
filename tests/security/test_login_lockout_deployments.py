"""The login lockout holds in both deployments, over real HTTP: the Docker image's daphne (its
arguments read from the Dockerfile's CMD, since no Docker engine is here) and `python -m faultline
run` with FAULTLINE_ENV=production. Rotating X-Forwarded-For addresses do not get past it, and
someone else's failures do not lock a user out of a browser they have logged in with before."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import uuid
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest

from tests.conftest import ROOT
from tests.conftest import test_database_url as database_url_of
from tests.support.people import PASSWORD
from tests.support.supervised import start_supervisor
from tests.test_launcher import free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SECRET = "a-production-key-for-this-test-only"


def image_daphne_arguments() -> list[str]:
    """The arguments the image runs daphne with: its Dockerfile's CMD."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    command = json.loads(re.search(r"^CMD (\[.*\])\s*$", dockerfile, re.M).group(1))
    assert command[0] == "daphne"
    return command[1:]


class Browser:
    """One browser through the proxy in front: HTTPS as far as the site knows, its own cookies
    (sent by hand: they are Secure, and this connection is plain HTTP)."""

    def __init__(self, base: str, forwarded_for: str | None = None):
        self.base, self.forwarded_for, self.cookies, self.token = base, forwarded_for, {}, None
        self.origin = base.replace("http://", "https://")

    def request(self, method: str, path: str, data: dict | None = None, forwarded_for: str | None = None):
        headers = {"X-Forwarded-Proto": "https", "Origin": self.origin}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        if forwarded_for or self.forwarded_for:
            headers["X-Forwarded-For"] = forwarded_for or self.forwarded_for
        response = httpx.request(method, self.base + path, data=data, headers=headers, timeout=30)
        for cookie in response.headers.get_list("set-cookie"):
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        return response

    def login(self, username: str, password: str, forwarded_for: str | None = None) -> int:
        if self.token is None:
            page = self.request("GET", "/accounts/login/", forwarded_for=forwarded_for)
            self.token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        data = {"username": username, "password": password, "csrfmiddlewaretoken": self.token}
        status = self.request("POST", "/accounts/login/", data, forwarded_for=forwarded_for).status_code
        if status == 302:
            self.token = None  # a login rotates the CSRF token
        return status

    def logout(self) -> None:
        token = self.cookies.get("csrftoken", "")
        self.request("POST", "/accounts/logout/", {"csrfmiddlewaretoken": token})
        assert "sessionid" not in self.cookies or not self.cookies["sessionid"].strip('"')


def the_lockout_holds_and_alice_gets_in(base: str, *, pair_locked: bool) -> None:
    """Alice has logged in from her browser before; Mallory then tries her name from rotating
    addresses (an X-Forwarded-For she writes, or each through the proxy), then with the right
    password. ``pair_locked``: every address is the same (no trusted proxy), so the pair locks;
    otherwise the name is slowed down, each try waiting longer after the last failure."""
    alice = Browser(base, forwarded_for="198.51.100.7")
    assert alice.login("alice", PASSWORD) == 302
    alice.logout()

    mallory = Browser(base)
    answers = [mallory.login("alice", "not-the-password", forwarded_for=f"203.0.113.{n}") for n in range(12)]
    assert answers[:5] == [200] * 5 and 429 in answers[5:], answers
    if pair_locked:
        assert answers[5:] == [429] * 7, answers
    else:
        deadline = time.monotonic() + 60  # a try once the wait is over is read (and fails) ...
        while mallory.login("alice", "not-the-password", forwarded_for="203.0.113.50") != 200:
            assert time.monotonic() < deadline
    # ... and the right password just after a failure is refused unread.
    assert mallory.login("alice", PASSWORD, forwarded_for="203.0.113.99") == 429

    assert alice.login("alice", PASSWORD) == 302


def production_env(database_url: str, **extra) -> dict:
    from django.conf import settings

    env = {key: value for key, value in os.environ.items() if not key.startswith(("FAULTLINE_", "DJANGO_"))}
    env.pop("DEBUG", None)
    env.pop("ALLOWED_HOSTS", None)
    return env | {
        "FAULTLINE_ENV": "production",
        "SECRET_KEY": SECRET,
        "DATABASE_URL": database_url,
        "REDIS_URL": settings.REDIS_URL,
        "PYTHONUNBUFFERED": "1",
        **extra,
    }


def serving(base: str, web: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            if Browser(base).request("GET", "/accounts/login/").status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert web.poll() is None and time.monotonic() < deadline, "the web process did not answer"
        time.sleep(0.3)


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password=PASSWORD)


def test_the_images_daphne_locks_out_rotating_addresses_and_lets_alice_in_from_her_own_browser(alice, tmp_path):
    from django.conf import settings
    from django.db import connection

    env = production_env(database_url_of(connection.settings_dict, settings.DATABASE_URL))
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    port = free_port()
    arguments = image_daphne_arguments()
    arguments[arguments.index("-p") + 1] = str(port)
    arguments[arguments.index("-b") + 1] = "127.0.0.1"
    web = subprocess.Popen(
        [sys.executable, "-m", "daphne", *arguments],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        serving(base, web)
        the_lockout_holds_and_alice_gets_in(base, pair_locked=True)
    finally:
        web.terminate()
        output = web.communicate(timeout=30)[0].decode()
    assert "Traceback" not in output, output


@pytest.fixture
def own_database(django_db_setup, django_db_blocker):
    """A database of its own on the suite's PostgreSQL, for the launcher to migrate and seed."""
    from django.conf import settings
    from django.db import connection

    admin_url = database_url_of(connection.settings_dict, settings.DATABASE_URL)
    name = f"lockout_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield urlunsplit(urlsplit(admin_url)._replace(path="/" + name))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def test_the_production_launcher_locks_out_rotating_addresses_and_lets_alice_in_from_her_own_browser(
    own_database, tmp_path
):
    port = free_port()
    env = production_env(
        own_database,
        FAULTLINE_STATE_DIR=str(tmp_path / "state"),
        FAULTLINE_QUEUE=f"lockout-{uuid.uuid4().hex[:8]}",  # no other worker takes its work
        FAULTLINE_LLM="local",
        # The test plays the proxy in front (on 127.0.0.1), appending each client's address.
        FAULTLINE_TRUSTED_PROXIES="127.0.0.1",
    )
    launcher, output = start_supervisor("run", "--port", str(port), "--concurrency", "1", cwd=ROOT, env=env)
    try:
        output.wait_for(f"Faultline is running at http://127.0.0.1:{port}/", timeout=300)
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "-c",
                f"from django.contrib.auth import get_user_model; get_user_model().objects.create_user('alice', password={PASSWORD!r})",
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )
        the_lockout_holds_and_alice_gets_in(f"http://127.0.0.1:{port}", pair_locked=False)
    finally:
        launcher.send_signal(2)
        launcher.wait(timeout=90)
    assert "Traceback" not in output.text, output.text
