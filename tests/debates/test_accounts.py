import pytest
from django.contrib.auth import get_user_model

pytestmark = pytest.mark.django_db


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "password1": "a-long-test-passphrase-42",
            "password2": "a-long-test-passphrase-42",
        },
    )

    assert response.status_code == 302
    assert response["Location"] == "/debates/new/"
    assert get_user_model().objects.filter(username="newcomer").exists()
    assert client.get("/debates/new/").status_code == 200


def test_signup_shows_errors_and_keeps_the_username(client):
    response = client.post("/accounts/signup/", {"username": "newcomer", "password1": "x", "password2": "y"})

    assert response.status_code == 200
    content = response.content.decode()
    assert 'value="newcomer"' in content
    assert "field-errors" in content
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_login_page_renders(client):
    response = client.get("/accounts/login/")

    assert response.status_code == 200
    assert b'name="username"' in response.content


def test_login_then_logout(client, user):
    from tests.support.people import PASSWORD

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302

    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/debates/").status_code == 302


@pytest.mark.parametrize("url", ["/debates/new/", "/debates/"])
def test_pages_need_a_login(client, url):
    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_home_sends_a_logged_in_user_to_setup(owner_client):
    response = owner_client.get("/")

    assert response.status_code == 302
    assert response["Location"] == "/debates/new/"


def test_home_welcomes_a_visitor(client, deck):
    response = client.get("/")

    assert response.status_code == 200
    assert b"Sign up" in response.content
    assert b"Money" in response.content
