from django.urls import path

from projects import views

P = "projects/<int:project_id>/"

urlpatterns = [
    path("projects/", views.project_list, name="project_list"),
    path("projects/new/", views.project_new, name="project_new"),
    path(P, views.project_detail, name="project_detail"),
    path(P + "edit/", views.project_edit, name="project_edit"),
    path(P + "delete/", views.project_delete, name="project_delete"),
    path(P + "assignments/new/", views.assignment_new, name="assignment_new"),
    path(P + "assignments/<int:assignment_id>/edit/", views.assignment_edit, name="assignment_edit"),
    path(P + "assignments/<int:assignment_id>/delete/", views.assignment_delete, name="assignment_delete"),
    path(
        P + "assignments/<int:assignment_id>/tasks/<int:index>/toggle/",
        views.assignment_toggle,
        name="assignment_toggle",
    ),
    path(P + "documents/new/", views.document_new, name="document_new"),
    path(P + "documents/<int:document_id>/", views.document_detail, name="document_detail"),
    path(P + "documents/<int:document_id>/delete/", views.document_delete, name="document_delete"),
    path(P + "documents/<int:document_id>/row/", views.document_row, name="document_row"),
    path(P + "repositories/new/", views.repository_new, name="repository_new"),
    path(P + "repositories/<int:repository_id>/", views.repository_detail, name="repository_detail"),
    path(P + "repositories/<int:repository_id>/status/", views.repository_status, name="repository_status"),
    path(P + "repositories/<int:repository_id>/refresh/", views.repository_refresh, name="repository_refresh"),
    path(P + "repositories/<int:repository_id>/delete/", views.repository_delete, name="repository_delete"),
    path(P + "notes/new/", views.note_new, name="note_new"),
    path(P + "notes/<int:note_id>/", views.note_detail, name="note_detail"),
    path(P + "notes/<int:note_id>/edit/", views.note_edit, name="note_edit"),
    path(P + "notes/<int:note_id>/delete/", views.note_delete, name="note_delete"),
]
