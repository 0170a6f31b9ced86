from django.apps import AppConfig


class DebatesConfig(AppConfig):
    name = "debates"

    def ready(self):
        from debates import signals  # noqa: F401  (connects the receivers)
