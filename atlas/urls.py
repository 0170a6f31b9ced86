from django.urls import path

from atlas import views

urlpatterns = [
    path("atlas/", views.atlas_page, name="atlas"),
    path("atlas/export.<str:fmt>", views.atlas_export, name="atlas_export"),
    path("projects/<int:project_id>/atlas/", views.atlas_page, name="project_atlas"),
    path("projects/<int:project_id>/atlas/export.<str:fmt>", views.atlas_export, name="project_atlas_export"),
    path("atlas/cards/<int:card_id>/", views.card_predictions, name="atlas_card"),
    path("atlas/predictions/<int:prediction_id>/", views.prediction_detail, name="atlas_prediction"),
    path("debates/<uuid:debate_id>/rerun/", views.rerun_new, name="debate_rerun"),
]
