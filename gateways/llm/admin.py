from django.contrib import admin

from gateways.input_rules import StrictJSONAdmin
from gateways.llm.models import ModelCall


@admin.register(ModelCall)
class ModelCallAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = [
        "created_at",
        "role",
        "provider",
        "model",
        "persona",
        "phase",
        "input_tokens",
        "output_tokens",
        "cost_usd",
        "latency_ms",
        "has_error",
    ]
    list_filter = ["role", "provider", "model"]
    search_fields = ["persona", "phase", "error", "debate__topic"]
    readonly_fields = [field.name for field in ModelCall._meta.fields]

    @admin.display(boolean=True)
    def has_error(self, call):
        return bool(call.error)
