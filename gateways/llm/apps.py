from django.apps import AppConfig


class LlmConfig(AppConfig):
    name = "gateways.llm"
    label = "llm"
    verbose_name = "Model gateway"
