from django.urls import path

from personas.views import builds, pages

urlpatterns = [
    path("personas/", pages.persona_list, name="persona_list"),
    path("personas/import/", pages.persona_import, name="persona_import"),
    path("personas/<int:pk>/", pages.persona_detail, name="persona_detail"),
    path("personas/<int:pk>/edit/", pages.persona_edit, name="persona_edit"),
    path("personas/<int:pk>/clone/", pages.persona_clone, name="persona_clone"),
    path("personas/<int:pk>/delete/", pages.persona_delete, name="persona_delete"),
    path("personas/<int:pk>/contract.json", pages.persona_export, name="persona_export"),
    path("personas/<int:pk>/corpus/", builds.persona_corpus, name="persona_corpus"),
    path("personas/<int:pk>/corpus/status/", builds.persona_corpus_status, name="persona_corpus_status"),
    path("personas/build/", builds.persona_build_new, name="persona_build_new"),
    path("personas/build/<int:pk>/", builds.persona_build, name="persona_build"),
    path("personas/build/<int:pk>/status/", builds.persona_build_status, name="persona_build_status"),
    path("personas/build/<int:pk>/discard/", builds.persona_build_discard, name="persona_build_discard"),
    path("decks/new/", pages.deck_new, name="deck_new"),
    path("decks/<int:pk>/", pages.deck_detail, name="deck_detail"),
    path("decks/<int:pk>/edit/", pages.deck_edit, name="deck_edit"),
    path("decks/<int:pk>/delete/", pages.deck_delete, name="deck_delete"),
    path("decks/<int:pk>/add/", pages.deck_add_persona, name="deck_add_persona"),
    path("decks/<int:pk>/remove/<int:persona_pk>/", pages.deck_remove_persona, name="deck_remove_persona"),
]
