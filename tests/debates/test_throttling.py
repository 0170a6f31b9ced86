"""Logins (the site's and the admin's) and sign-ups are throttled per client address."""

import pytest
from django.contrib.auth import get_user_model

from tests.support.people import PASSWORD

pytestmark = pytest.mark.django_db


def fail_login(client, url="/accounts/login/", username="alice"):
    return client.post(url, {"username": username, "password": "not-the-password"})


def test_the_sixth_failed_login_in_a_minute_is_throttled(client, user):
    for attempt in range(5):
        response = fail_login(client)
        assert response.status_code == 200, f"attempt {attempt + 1} is an ordinary wrong password"
        assert "Please enter a correct username and password" in response.content.decode()

    response = fail_login(client)

    content = response.content.decode()
    assert response.status_code == 429
    assert "Too many attempts" in content and 'role="alert"' in content
    assert "Wait 15 minutes, then try again." in content


def test_a_locked_out_address_cannot_log_in_even_with_the_right_password(client, user):
    for _ in range(6):
        fail_login(client)

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_admin_login_is_throttled_too(client, user):
    for _ in range(5):
        assert fail_login(client, "/admin/login/").status_code == 200

    assert fail_login(client, "/admin/login/").status_code == 429


def test_a_good_login_resets_the_count(client, user):
    for _ in range(4):
        fail_login(client)
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code == 302
    client.post("/accounts/logout/")

    for _ in range(5):
        assert fail_login(client).status_code == 200


def test_signups_from_one_address_are_rate_limited(client, settings):
    settings.FAULTLINE_SIGNUP_RATE = "3/h"
    for number in range(3):
        client.post("/accounts/signup/", {"username": f"bot{number}", "password1": "x", "password2": "y"})

    response = client.post(
        "/accounts/signup/",
        {
            "username": "bot-ok",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 429
    assert "Too many sign-ups from your address" in response.content.decode()
    assert not get_user_model().objects.filter(username="bot-ok").exists()
