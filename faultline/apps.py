from django.apps import AppConfig


class FaultlineConfig(AppConfig):
    name = "faultline"
    verbose_name = "Faultline"
