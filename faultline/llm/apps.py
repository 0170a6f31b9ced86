from django.apps import AppConfig


class LlmConfig(AppConfig):
    name = "faultline.llm"
    label = "llm"
    verbose_name = "Model gateway"
