from django.contrib import admin

from gateways.input_rules import StrictJSONAdmin
from memory.models import Insight, MemoryRecall, PersonaMemory


@admin.register(Insight)
class InsightAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = [
        "text",
        "kind",
        "owner",
        "project",
        "confidence",
        "agreed_by_all",
        "review",
        "times_retrieved",
        "created_at",
    ]
    list_filter = ["kind", "agreed_by_all", "review", "embedding_model"]
    search_fields = ["text", "owner__username", "project__name"]
    raw_id_fields = ["owner", "project", "assignment", "repository", "debate"]
    exclude = ["embedding"]
    readonly_fields = ["embedding_model", "times_retrieved", "last_retrieved_at"]


@admin.register(PersonaMemory)
class PersonaMemoryAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["text", "kind", "persona", "owner", "importance", "times_retrieved", "created_at"]
    list_filter = ["kind", "embedding_model"]
    search_fields = ["text", "owner__username", "persona__name"]
    raw_id_fields = ["owner", "persona", "project", "debate"]
    exclude = ["embedding"]
    readonly_fields = ["embedding_model", "times_retrieved", "last_retrieved_at"]


@admin.register(MemoryRecall)
class MemoryRecallAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["debate", "method", "scope", "embedding_model", "created_at"]
    list_filter = ["method"]
    raw_id_fields = ["debate"]
