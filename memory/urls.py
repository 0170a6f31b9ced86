from django.urls import path

from memory import views

urlpatterns = [
    path("projects/<int:project_id>/memory/", views.project_memory, name="project_memory"),
    path("memory/personas/<slug:persona_id>/", views.persona_memory, name="persona_memory"),
    path("debates/<uuid:debate_id>/memory/", views.debate_memory, name="debate_memory"),
    path("memory/insights/<int:insight_id>/delete/", views.insight_delete, name="insight_delete"),
    path("memory/facts/review/", views.fact_review_list, name="fact_review_list"),
    path("memory/facts/<int:insight_id>/confirm/", views.fact_confirm, name="fact_confirm"),
    path("memory/facts/<int:insight_id>/edit/", views.fact_edit, name="fact_edit"),
    path("memory/facts/<int:insight_id>/reject/", views.fact_reject, name="fact_reject"),
    path("memory/persona-memories/<int:memory_id>/delete/", views.persona_memory_delete, name="persona_memory_delete"),
]
