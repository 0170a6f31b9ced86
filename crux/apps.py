from django.apps import AppConfig


class CruxConfig(AppConfig):
    name = "crux"
    verbose_name = "Cruxes and argumentation"
