"""Creating, editing and deleting projects and assignments from their pages."""

import pytest
from django.urls import reverse

from debates.models import Debate
from projects.models import Assignment, Document, Note, Project

pytestmark = pytest.mark.django_db


def test_a_project_is_created_and_shown(owner_client, user):
    response = owner_client.post(
        reverse("project_new"),
        {"name": "  Kitchen remodel ", "description": "New cabinets.", "goals": "Done by May.", "status": "active"},
    )

    project = Project.objects.get()
    assert response["Location"] == reverse("project_detail", args=[project.pk])
    assert (project.owner, project.name, project.goals) == (user, "Kitchen remodel", "Done by May.")
    assert "Kitchen remodel" in owner_client.get(reverse("project_list")).content.decode()


def test_a_second_project_with_the_same_name_is_refused(owner_client, project):
    response = owner_client.post(reverse("project_new"), {"name": "thesis", "status": "active"})

    assert "You already have a project called “thesis”." in response.content.decode()
    assert Project.objects.count() == 1


def test_another_user_may_use_the_same_name(other_client, project):
    other_client.post(reverse("project_new"), {"name": "Thesis", "status": "active"})
    assert Project.objects.filter(name="Thesis").count() == 2


def test_a_project_is_edited(owner_client, project):
    owner_client.post(reverse("project_edit", args=[project.pk]), {"name": "Thesis v2", "status": "paused"})
    project.refresh_from_db()
    assert (project.name, project.status) == ("Thesis v2", "paused")


def test_deleting_a_project_keeps_its_debates(owner_client, project, finished_debate, note):
    owner_client.post(reverse("project_delete", args=[project.pk]))

    assert not Project.objects.exists() and not Note.objects.exists() and not Document.objects.exists()
    debate = Debate.objects.get()
    assert debate.context_project is None and debate.context_label == "Project “Thesis”"


def test_an_assignment_with_a_checklist(owner_client, project):
    owner_client.post(
        reverse("assignment_new", args=[project.pk]),
        {
            "name": "Chapter 3",
            "brief": "Results.",
            "status": "in_progress",
            "priority": "high",
            "checklist_text": "[x] Run the models\n- [ ] Write it up\n\n  Plot the figures",
        },
    )

    assignment = Assignment.objects.get(name="Chapter 3")
    assert assignment.checklist == [
        {"text": "Run the models", "done": True},
        {"text": "Write it up", "done": False},
        {"text": "Plot the figures", "done": False},
    ]
    edit = owner_client.get(reverse("assignment_edit", args=[project.pk, assignment.pk])).content.decode()
    assert "[x] Run the models\n[ ] Write it up\n[ ] Plot the figures" in edit


def test_ticking_a_task_with_htmx_returns_the_checklist(owner_client, project):
    assignment = Assignment.objects.get()

    response = owner_client.post(
        reverse("assignment_toggle", args=[project.pk, assignment.pk, 0]), HTTP_HX_REQUEST="true"
    )

    assignment.refresh_from_db()
    assert assignment.checklist == [{"text": "Outline", "done": False}]
    assert response.content.decode().startswith(f'<ul class="checklist" id="checklist-{assignment.pk}">')


def test_two_assignments_in_a_project_need_different_names(owner_client, project):
    response = owner_client.post(
        reverse("assignment_new", args=[project.pk]), {"name": "chapter 2", "status": "todo", "priority": "low"}
    )
    assert "This project already has an assignment called “chapter 2”." in response.content.decode()
    assert Assignment.objects.count() == 1


def test_pages_need_a_login(client, project):
    response = client.get(reverse("project_detail", args=[project.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
