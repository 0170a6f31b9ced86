"""404, 500 and CSRF failures get pages in the site's style, and every page carries the CSP."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_missing_page_is_the_sites_404(client, settings):
    settings.DEBUG = False

    response = client.get("/no/such/page/")

    content = response.content.decode()
    assert response.status_code == 404
    assert "Nothing here" in content and 'class="topbar"' in content


def test_a_server_error_is_the_sites_500(rf):
    from django.views.defaults import server_error

    response = server_error(rf.get("/"))  # what Django renders for an unhandled exception

    content = response.content.decode()
    assert response.status_code == 500
    assert "Something broke on our side" in content and 'class="topbar"' in content


def test_a_csrf_failure_is_the_sites_403_page(django_user_model):
    user = django_user_model.objects.create_user("alice", password="x")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post("/debates/new/", {"topic": "no token"})

    content = response.content.decode()
    assert response.status_code == 403
    assert "That form had expired" in content and user.username in content, "rendered with the request"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/accounts/signup/", "/no/such/page/", "/healthz"])
def test_every_response_carries_a_strict_content_security_policy(client, path):
    policy = client.get(path)["Content-Security-Policy"]

    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


def test_htmx_runs_without_eval_or_script_tags(client):
    content = client.get("/accounts/login/").content.decode()

    assert '"allowEval":false' in content and '"allowScriptTags":false' in content


def test_the_site_has_an_icon_every_page_names_and_favicon_ico_finds(client):
    page = client.get("/accounts/login/").content.decode()
    icon = client.get("/favicon.ico")

    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert icon.status_code == 301 and icon["Location"] == "/static/favicon.svg"
    assert client.get(icon["Location"]).status_code == 200
