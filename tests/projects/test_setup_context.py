"""Choosing a debate's context on the setup page: the selector offers the user's own projects,
assignments and repositories only; the chosen one is assembled into the debate and named on its
page and in its exports."""

import pytest
from django.urls import reverse

from debates.models import Debate
from projects.models import Assignment, Project, Repository
from tests.projects.conftest import MARKER

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(monkeypatch):
    """Record debate_start's calls to the worker instead of queueing real tasks."""
    queued = []
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: queued.append(str(debate_id)))
    return queued


@pytest.fixture
def someone_elses(other_user):
    project = Project.objects.create(owner=other_user, name="Mallory's secret plan")
    Assignment.objects.create(project=project, name="Steal the thesis")
    Repository.objects.create(project=project, name="evil-repo", source="local")
    return project


def start(client, deck, personas, context):
    return client.post(
        reverse("debate_new"),
        {
            "deck": deck.pk,
            "personas": [personas[0].pk, personas[1].pk],
            "topic": "Should the thesis use the Lisbon data?",
            "length": "short",
            "mode": "dialogue",
            "context": context,
        },
    )


def test_the_selector_offers_only_ones_own(owner_client, deck, project, someone_elses):
    page = owner_client.get(reverse("debate_new"), {"context": f"project:{project.pk}"}).content.decode()

    assert f'<option value="project:{project.pk}" selected>Thesis</option>' in page
    assert "Thesis › Chapter 2" in page
    assert "Mallory" not in page and "Steal the thesis" not in page and "evil-repo" not in page
    assert "None: a general debate" in page


def test_a_debate_started_with_project_context_carries_it(owner_client, deck, personas, project, started):
    response = start(owner_client, deck, personas, f"project:{project.pk}")

    debate = Debate.objects.get()
    assert response.status_code == 302 and started == [str(debate.id)]
    assert (debate.context_type, debate.context_project, debate.context_label) == (
        "project",
        project,
        "Project “Thesis”",
    )
    assert MARKER in debate.context_text and "Chapter 2" in debate.context_text
    live = owner_client.get(reverse("debate_live", args=[debate.id])).content.decode()
    assert 'id="debate-context"' in live and "Project “Thesis”" in live
    markdown = owner_client.get(reverse("debate_export_markdown", args=[debate.id])).content.decode()
    assert "- Context: Project “Thesis”" in markdown
    exported = owner_client.get(reverse("debate_export_json", args=[debate.id])).json()
    assert exported["debate"]["context"] == {"type": "project", "label": "Project “Thesis”"}
    listed = owner_client.get(reverse("project_detail", args=[project.pk])).content.decode()
    assert debate.topic in listed


def test_an_assignment_context_keeps_its_project(owner_client, deck, personas, project, started):
    assignment = Assignment.objects.get()

    start(owner_client, deck, personas, f"assignment:{assignment.pk}")

    debate = Debate.objects.get()
    assert (debate.context_type, debate.context_assignment, debate.context_project) == (
        "assignment",
        assignment,
        project,
    )
    assert debate.context_label == "Assignment “Chapter 2” in project “Thesis”"


@pytest.mark.parametrize("kind", ["project", "assignment", "repository"])
def test_someone_elses_context_is_refused_and_nothing_is_created(
    owner_client, deck, personas, someone_elses, started, kind
):
    target = {"project": someone_elses, "assignment": Assignment.objects.get(), "repository": Repository.objects.get()}

    response = start(owner_client, deck, personas, f"{kind}:{target[kind].pk}")

    assert response.status_code == 200
    assert "Pick one of your own projects, assignments or repositories." in response.content.decode()
    assert not Debate.objects.exists() and started == []


def test_no_context_is_a_general_debate(owner_client, deck, personas, started):
    start(owner_client, deck, personas, "")

    debate = Debate.objects.get()
    assert (debate.context_type, debate.context_label, debate.context_text) == ("none", "", "")
    assert 'id="debate-context"' not in owner_client.get(reverse("debate_live", args=[debate.id])).content.decode()
