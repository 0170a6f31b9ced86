from django.urls import path

from debates.views import archive, artifacts, interjections, live, manage, notes, setup

urlpatterns = [
    path("", setup.home, name="home"),
    path("debates/new/", setup.debate_new, name="debate_new"),
    path("debates/new/hand/", setup.debate_hand, name="debate_hand"),
    path("debates/", archive.debate_archive, name="debate_archive"),
    path("debates/<uuid:debate_id>/", live.debate_live, name="debate_live"),
    path("debates/<uuid:debate_id>/stop/", live.debate_stop, name="debate_stop"),
    path("debates/<uuid:debate_id>/resume/", live.debate_resume, name="debate_resume"),
    path("debates/<uuid:debate_id>/ask-again/", setup.debate_ask_again, name="debate_ask_again"),
    path("debates/<uuid:debate_id>/pause/", live.debate_pause, name="debate_pause"),
    path("debates/<uuid:debate_id>/continue/", live.debate_continue, name="debate_continue"),
    path("debates/<uuid:debate_id>/interject/", interjections.debate_interject, name="debate_interject"),
    path("debates/<uuid:debate_id>/share/", live.debate_share, name="debate_share"),
    path("debates/<uuid:debate_id>/unshare/", live.debate_unshare, name="debate_unshare"),
    path("debates/<uuid:debate_id>/rename/", manage.debate_rename, name="debate_rename"),
    path("debates/<uuid:debate_id>/delete/", manage.debate_delete, name="debate_delete"),
    path("debates/<uuid:debate_id>/failure/", live.debate_failure_reason, name="debate_failure_reason"),
    path("debates/<uuid:debate_id>/replay/", archive.debate_replay, name="debate_replay"),
    path("debates/<uuid:debate_id>/results/", archive.debate_results, name="debate_results"),
    path("debates/<uuid:debate_id>/summary/", archive.debate_summary, name="debate_summary"),
    path("debates/<uuid:debate_id>/results.md", archive.debate_results_text, name="debate_results_text"),
    path("debates/<uuid:debate_id>/save-note/", notes.debate_save_note, name="debate_save_note"),
    path("debates/<uuid:debate_id>/artifact.md", artifacts.debate_artifact_markdown, name="debate_artifact_markdown"),
    path("debates/<uuid:debate_id>/save-artifact/", artifacts.debate_save_artifact, name="debate_save_artifact"),
    path("debates/<uuid:debate_id>/export.md", archive.debate_export_markdown, name="debate_export_markdown"),
    path("debates/<uuid:debate_id>/export.json", archive.debate_export_json, name="debate_export_json"),
    path("shared/<str:token>/", live.debate_shared, name="debate_shared"),
]
