from django.apps import AppConfig


class PersonasConfig(AppConfig):
    name = "personas"
    verbose_name = "Personas and decks"
