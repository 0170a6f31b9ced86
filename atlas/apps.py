from django.apps import AppConfig


class AtlasConfig(AppConfig):
    name = "atlas"
    verbose_name = "Crux atlas and predictions"
