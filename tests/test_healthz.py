import pytest

pytestmark = pytest.mark.django_db


def test_it_reports_every_part(client):
    response = client.get("/healthz")

    report = response.json()
    assert set(report) == {"ok", "database", "redis", "worker", "model_provider"}
    assert report["database"]["ok"] and "pgvector" in report["database"]["detail"]
    assert report["redis"]["ok"]
    assert report["model_provider"]["ok"]


def test_it_is_all_green_with_a_worker_consuming_the_real_broker(client, celery_worker_process):
    response = client.get("/healthz")

    assert response.status_code == 200, response.json()
    assert all(part["ok"] for name, part in response.json().items() if name != "ok")


def test_it_reports_a_missing_api_key(client, settings):
    from faultline.llm import gateway

    settings.FAULTLINE_LLM = "anthropic"
    settings.ANTHROPIC_API_KEY = ""
    gateway.reset_provider()
    try:
        report = client.get("/healthz").json()
    finally:
        gateway.reset_provider()

    assert report["model_provider"] == {
        "ok": False,
        "detail": "FAULTLINE_LLM=anthropic but ANTHROPIC_API_KEY is not set",
        "provider": "anthropic",
    }


def test_a_failing_check_is_logged_as_a_warning_naming_it_not_as_a_server_error(client, settings, caplog):
    from faultline.llm import gateway

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
