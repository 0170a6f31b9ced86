from django.contrib import admin
from django.db import models

from gateways.input_rules import StrictJSONAdmin
from projects.models import Assignment, Document, Note, Project, Repository


class AssignmentInline(StrictJSONAdmin, admin.TabularInline):
    model = Assignment
    fields = ["name", "status", "priority"]
    extra = 0
    show_change_link = True


@admin.register(Project)
class ProjectAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["name", "owner", "status", "updated_at"]
    list_filter = ["status"]
    search_fields = ["name", "owner__username"]
    raw_id_fields = ["owner"]
    inlines = [AssignmentInline]


@admin.register(Assignment)
class AssignmentAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["name", "project", "status", "priority"]
    list_filter = ["status", "priority"]
    search_fields = ["name", "project__name"]
    raw_id_fields = ["project"]


@admin.register(Document)
class DocumentAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["title", "project", "kind", "size", "created_at"]
    list_filter = ["kind"]
    search_fields = ["title", "project__name"]
    raw_id_fields = ["project"]
    readonly_fields = ["size", "filename"]


@admin.register(Repository)
class RepositoryAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["name", "project", "source", "read_at"]
    list_filter = ["source"]
    search_fields = ["name", "project__name", "path", "url"]
    raw_id_fields = ["project"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}


@admin.register(Note)
class NoteAdmin(StrictJSONAdmin, admin.ModelAdmin):
    list_display = ["title", "project", "updated_at"]
    search_fields = ["title", "content", "project__name"]
    raw_id_fields = ["project", "debate"]
