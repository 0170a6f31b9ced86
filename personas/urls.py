from django.urls import path

from personas import views

urlpatterns = [
    path("personas/", views.persona_list, name="persona_list"),
    path("personas/import/", views.persona_import, name="persona_import"),
    path("personas/<int:pk>/", views.persona_detail, name="persona_detail"),
    path("personas/<int:pk>/edit/", views.persona_edit, name="persona_edit"),
    path("personas/<int:pk>/clone/", views.persona_clone, name="persona_clone"),
    path("personas/<int:pk>/delete/", views.persona_delete, name="persona_delete"),
    path("personas/<int:pk>/contract.json", views.persona_export, name="persona_export"),
    path("decks/new/", views.deck_new, name="deck_new"),
    path("decks/<int:pk>/", views.deck_detail, name="deck_detail"),
    path("decks/<int:pk>/edit/", views.deck_edit, name="deck_edit"),
    path("decks/<int:pk>/delete/", views.deck_delete, name="deck_delete"),
    path("decks/<int:pk>/add/", views.deck_add_persona, name="deck_add_persona"),
    path("decks/<int:pk>/remove/<int:persona_pk>/", views.deck_remove_persona, name="deck_remove_persona"),
]
