from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import Count
from django.forms import Textarea
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html, format_html_join

from gateways.input_rules import StrictJSONAdmin
from personas.forms import ContractUploadForm, PersonaAdminForm
from personas.models import AnchorExcerpt, Deck, Persona
from personas.services import (
    PersonaImportError,
    persona_contract_json,
    persona_export_zip,
    persona_import_upload,
)

# An import with hundreds of problems would bury the page; the first ones are enough to act on.
MAX_ERROR_MESSAGES = 25


class AnchorExcerptInline(StrictJSONAdmin, admin.TabularInline):
    model = AnchorExcerpt
    fields = ["position", "excerpt_id", "content", "source", "date"]
    ordering = ["position", "id"]
    extra = 0
    formfield_overrides = {models.TextField: {"widget": Textarea(attrs={"rows": 3, "cols": 70})}}


@admin.register(Persona)
class PersonaAdmin(StrictJSONAdmin, admin.ModelAdmin):
    form = PersonaAdminForm
    raw_id_fields = ["owner"]
    inlines = [AnchorExcerptInline]
    list_display = ["name", "persona_id", "owner", "tagline", "deck_names", "excerpt_count", "version", "updated_at"]
    list_filter = [("owner", admin.EmptyFieldListFilter), "decks", "updated_at"]
    search_fields = ["name", "persona_id", "personality"]
    readonly_fields = ["created_at", "updated_at"]
    actions = ["export_selected"]
    fieldsets = [
        (None, {"fields": ["persona_id", "name", "tagline", "version", "owner"]}),
        (
            "Contract",
            {
                "description": "What this persona believes and how they weigh evidence.",
                "fields": [
                    "personality",
                    "bias",
                    "stakes",
                    "epistemology",
                    "time_horizon",
                    "flip_conditions",
                    "evidence_policy",
                ],
            },
        ),
        (
            "Voice",
            {
                "description": "How they talk, not what they believe. Anchor excerpts are below.",
                "fields": ["speech_patterns", "vocabulary", "forbidden_phrases", "voice_examples"],
            },
        ),
        ("History", {"classes": ["collapse"], "fields": ["created_at", "updated_at"]}),
    ]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(excerpt_total=Count("anchor_excerpts", distinct=True))
            .prefetch_related("decks")
            .select_related("owner")
        )

    @admin.display(description="Decks")
    def deck_names(self, persona):
        return ", ".join(deck.name for deck in persona.decks.all())

    @admin.display(description="Excerpts", ordering="excerpt_total")
    def excerpt_count(self, persona):
        return persona.excerpt_total

    @admin.action(description="Export selected as JSON", permissions=["view"])
    def export_selected(self, request, queryset):
        personas = list(queryset)
        if len(personas) == 1:
            return _attachment(
                persona_contract_json(personas[0]).encode(), f"{personas[0].persona_id}.json", "application/json"
            )
        return _attachment(persona_export_zip(personas=personas), "faultline-personas.zip", "application/zip")

    def get_urls(self):
        urls = [
            path("import/", self.admin_site.admin_view(self.import_view), name="personas_persona_import"),
            path(
                "<int:pk>/contract.json",
                self.admin_site.admin_view(self.download_view),
                name="personas_persona_download",
            ),
        ]
        return urls + super().get_urls()

    def import_view(self, request):
        if not (self.has_add_permission(request) and self.has_change_permission(request)):
            raise PermissionDenied
        form = ContractUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                result = persona_import_upload(filename=upload.name, content=upload.read())
            except PersonaImportError as exc:
                messages.error(request, _import_errors_message(upload.name, exc.errors))
            else:
                for line in result.summary_lines() or ["Nothing to import."]:
                    messages.success(request, line)
                return redirect("admin:personas_persona_changelist")
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": "Import persona contracts",
            "form": form,
        }
        return TemplateResponse(request, "admin/personas/persona/import_contracts.html", context)

    def download_view(self, request, pk):
        if not self.has_view_permission(request):
            raise PermissionDenied
        persona = get_object_or_404(Persona, pk=pk)
        return _attachment(persona_contract_json(persona).encode(), f"{persona.persona_id}.json", "application/json")


def _import_errors_message(filename: str, errors: list[str]) -> str:
    # One message holding a list: the admin capitalises each message's first letter, which would
    # misname files ("bad.json" -> "Bad.json") if every error were a message of its own.
    shown = errors[:MAX_ERROR_MESSAGES]
    more = len(errors) - len(shown)
    return format_html(
        "Nothing was imported from {}. Fix these problems and upload again:<ul>{}{}</ul>",
        filename,
        format_html_join("", "<li>{}</li>", ((error,) for error in shown)),
        format_html("<li>... and {} more</li>", more) if more else "",
    )


def _attachment(content: bytes, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@admin.register(Deck)
class DeckAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["name", "slug", "owner", "topic_area", "persona_count", "created_at"]
    list_filter = [("owner", admin.EmptyFieldListFilter), "topic_area"]
    search_fields = ["name", "slug", "topic_area", "description", "personas__name"]
    filter_horizontal = ["personas"]
    raw_id_fields = ["owner"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(persona_total=Count("personas", distinct=True))

    @admin.display(description="Personas", ordering="persona_total")
    def persona_count(self, deck):
        return deck.persona_total
