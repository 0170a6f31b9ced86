from django.apps import AppConfig


class FaultlineConfig(AppConfig):
    name = "faultline"
    verbose_name = "Faultline"

    def ready(self):
        # The login throttle counts failures and clears them on a login through auth's signals.
        from faultline import login_throttle  # noqa: F401
