"""Failed logins hold back whoever makes them, and nobody else: the (user name, address) pair is
locked, a user name failing from everywhere is slowed with a growing delay, a browser that logged
in under that name before (its device cookie) goes through both; the address is one only a
trusted proxy can set (FAULTLINE_TRUSTED_PROXIES). The same in a real daphne, as the image and
the launcher run it: test_login_lockout_deployments.py."""

import datetime as dt

import pytest
from django.test import Client

from faultline.login_throttle import DEVICE_COOKIE
from faultline.models import LoginThrottle
from tests.support.people import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


def attempt(client, password="not-the-password", username="alice", url=LOGIN, forwarded_for=None, peer="127.0.0.1"):
    extra = {"REMOTE_ADDR": peer} | ({"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {})
    return client.post(url, {"username": username, "password": password}, **extra)


def time_passes(seconds: float) -> None:
    """Every count's last failure moves back, as if ``seconds`` had passed."""
    for row in LoginThrottle.objects.all():
        row.last_failure -= dt.timedelta(seconds=seconds)
        row.save(update_fields=["last_failure"])


def test_rotating_forwarded_for_addresses_from_an_untrusted_peer_do_not_escape_the_lockout(user, settings):
    settings.FAULTLINE_TRUSTED_PROXIES = []
    mallory = Client()
    answers = [attempt(mallory, forwarded_for=f"203.0.113.{n}").status_code for n in range(12)]

    assert answers == [200] * 5 + [429] * 7
    assert attempt(mallory, PASSWORD, forwarded_for="198.51.100.9").status_code == 429
    assert "_auth_user_id" not in mallory.session


def test_behind_a_trusted_proxy_the_client_is_the_right_most_untrusted_hop(user, settings):
    settings.FAULTLINE_TRUSTED_PROXIES = ["10.0.0.0/8"]
    mallory = Client()
    # Mallory writes an X-Forwarded-For of her own; the proxy (10.0.0.2) appends what it saw.
    for n in range(5):
        attempt(mallory, forwarded_for=f"198.51.100.{n}, 203.0.113.66", peer="10.0.0.2")

    refused = attempt(mallory, forwarded_for="198.51.100.99, 203.0.113.66", peer="10.0.0.2")

    assert refused.status_code == 429
    assert "logging in from here is paused" in refused.content.decode()


def test_nobody_is_locked_out_by_someone_elses_failures_from_a_browser_they_logged_in_with(user, settings):
    settings.FAULTLINE_TRUSTED_PROXIES = []  # behind an untrusted proxy: everyone has its address
    alice = Client()
    assert attempt(alice, PASSWORD).status_code == 302
    assert alice.cookies[DEVICE_COOKIE].value
    alice.post("/accounts/logout/")

    mallory = Client()
    assert [attempt(mallory).status_code for _ in range(12)][-1] == 429

    assert attempt(alice, PASSWORD).status_code == 302
    assert alice.session["_auth_user_id"] == str(user.pk)


def test_a_user_name_failing_from_everywhere_is_slowed_with_a_growing_delay(user, settings):
    settings.FAULTLINE_TRUSTED_PROXIES = ["10.0.0.2"]
    botnet = Client()
    for n in range(5):
        assert attempt(botnet, forwarded_for=f"203.0.113.{n}", peer="10.0.0.2").status_code == 200

    waits = []
    for n in range(5, 9):
        refused = attempt(botnet, forwarded_for=f"203.0.113.{n}", peer="10.0.0.2")
        assert refused.status_code == 429
        waits.append(refused.context["cooloff_timedelta"].total_seconds())
        time_passes(waits[-1])
        assert attempt(botnet, forwarded_for=f"203.0.113.{n}", peer="10.0.0.2").status_code == 200

    assert [round(wait) for wait in waits] == [1, 2, 4, 8]
    # The right password, too soon: refused unread.
    assert attempt(botnet, PASSWORD, forwarded_for="203.0.113.200", peer="10.0.0.2").status_code == 429


def test_someone_slowed_down_by_others_gets_in_once_the_wait_is_over(user, settings):
    settings.FAULTLINE_TRUSTED_PROXIES = ["10.0.0.2"]
    for n in range(8):
        attempt(Client(), forwarded_for=f"203.0.113.{n}", peer="10.0.0.2")
    alice = Client()  # a new browser: no device cookie
    assert attempt(alice, PASSWORD, forwarded_for="198.51.100.7", peer="10.0.0.2").status_code == 429

    time_passes(settings.FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS)

    assert attempt(alice, PASSWORD, forwarded_for="198.51.100.7", peer="10.0.0.2").status_code == 302


def test_a_browser_with_a_device_cookie_is_locked_out_by_its_own_failures(user):
    alice = Client()
    attempt(alice, PASSWORD)
    alice.post("/accounts/logout/")

    assert [attempt(alice).status_code for _ in range(6)] == [200] * 5 + [429]


def test_a_device_cookie_of_another_user_name_does_not_let_a_browser_through(user, other_user):
    mallory = Client()
    assert attempt(mallory, PASSWORD, username="mallory").status_code == 302
    mallory.post("/accounts/logout/")

    assert [attempt(mallory).status_code for _ in range(6)][-1] == 429


@pytest.mark.parametrize("url", [LOGIN, "/admin/login/"])
def test_a_user_name_of_300_characters_is_a_failed_login_not_a_server_error(client, url):
    answers = [attempt(client, username="x" * 300, url=url).status_code for _ in range(6)]

    assert answers == [200] * 5 + [429]


def test_signups_are_counted_per_address_only_a_trusted_proxy_can_set(client, settings):
    settings.FAULTLINE_SIGNUP_RATE = "3/h"
    settings.FAULTLINE_TRUSTED_PROXIES = []
    for number in range(3):
        client.post(
            "/accounts/signup/",
            {"username": f"bot{number}", "password1": "x", "password2": "y"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{number}",
        )

    response = client.post(
        "/accounts/signup/",
        {"username": "bot-ok", "password1": PASSWORD, "password2": PASSWORD},
        HTTP_X_FORWARDED_FOR="203.0.113.77",
    )

    assert response.status_code == 429
