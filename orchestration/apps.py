from django.apps import AppConfig


class OrchestrationConfig(AppConfig):
    """Runs debates: the only layer that knows both the record (debates) and disputes (crux)."""

    name = "orchestration"
