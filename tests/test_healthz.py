import pytest

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("operator", password="x", is_staff=True))
    return client


def test_it_reports_every_part(staff_client):
    response = staff_client.get("/healthz")

    report = response.json()
    assert set(report) == {"ok", "database", "redis", "worker", "model_provider"}
    assert report["database"]["ok"] and "pgvector" in report["database"]["detail"]
    assert report["redis"]["ok"]
    assert report["model_provider"]["ok"]


def test_it_is_all_green_with_a_worker_consuming_the_real_broker(client, celery_worker_process):
    response = client.get("/healthz")

    assert response.status_code == 200, response.json()
    assert all(part["ok"] for name, part in response.json().items() if name != "ok")


def test_it_reports_a_missing_api_key(staff_client, settings):
    from gateways.llm import gateway

    settings.FAULTLINE_LLM = "anthropic"
    settings.ANTHROPIC_API_KEY = ""
    gateway.reset_provider()
    try:
        report = staff_client.get("/healthz").json()
    finally:
        gateway.reset_provider()

    assert report["model_provider"] == {
        "ok": False,
        "detail": "FAULTLINE_LLM=anthropic but ANTHROPIC_API_KEY is not set",
        "provider": "anthropic",
    }


def test_a_failing_check_is_logged_as_a_warning_naming_it_not_as_a_server_error(client, settings, caplog):
    from gateways.llm import gateway

    settings.FAULTLINE_LLM = "anthropic"
    settings.ANTHROPIC_API_KEY = ""
    gateway.reset_provider()
    try:
        with caplog.at_level("INFO"):
            response = client.get("/healthz")
    finally:
        gateway.reset_provider()

    assert response.status_code == 503
    warnings = [r.getMessage() for r in caplog.records if r.name == "faultline.health"]
    assert any("model_provider: FAULTLINE_LLM=anthropic but ANTHROPIC_API_KEY is not set" in w for w in warnings)
    assert not [r for r in caplog.records if r.name == "django.request"]


def test_anyone_else_gets_which_parts_are_up_without_details_or_a_login_redirect(client, django_user_model, settings):
    from gateways.llm import gateway

    settings.FAULTLINE_LLM = "anthropic"
    settings.ANTHROPIC_API_KEY = ""
    gateway.reset_provider()
    try:
        anonymous = client.get("/healthz")
        client.force_login(django_user_model.objects.create_user("visitor", password="x"))
        signed_in = client.get("/healthz")
    finally:
        gateway.reset_provider()

    for response in (anonymous, signed_in):
        assert response.status_code == 503
        report = response.json()
        assert report["ok"] is False and report["model_provider"] == {"ok": False}
        assert report["database"] == {"ok": True} and report["redis"] == {"ok": True}
        assert "ANTHROPIC_API_KEY" not in response.content.decode()
