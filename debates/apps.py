from django.apps import AppConfig


class DebatesConfig(AppConfig):
    name = "debates"

    def ready(self):
        from debates import modes, signals  # noqa: F401  (the mode table's rows; connects the receivers)
