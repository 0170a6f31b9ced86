"""Everything in a project is its owner's alone: anyone else gets 404 on every project, assignment,
document, repository, note and debate URL (GET and POST, nothing changes), and a debate shared by
link never names the project it worked on."""

import pytest
from django.urls import reverse

from debates.models import Debate
from debates.services.lifecycle import debate_share
from projects.models import Assignment, Document, Note, Project, Repository

pytestmark = pytest.mark.django_db


@pytest.fixture
def repository(project):
    return Repository.objects.create(project=project, name="widget", source="local", path="/srv/widget")


def project_urls(project, assignment, document, repository, note) -> list[str]:
    p = project.pk
    return [
        reverse("project_detail", args=[p]),
        reverse("project_edit", args=[p]),
        reverse("project_delete", args=[p]),
        reverse("assignment_new", args=[p]),
        reverse("assignment_edit", args=[p, assignment.pk]),
        reverse("assignment_delete", args=[p, assignment.pk]),
        reverse("assignment_toggle", args=[p, assignment.pk, 0]),
        reverse("document_new", args=[p]),
        reverse("document_detail", args=[p, document.pk]),
        reverse("document_delete", args=[p, document.pk]),
        reverse("repository_new", args=[p]),
        reverse("repository_detail", args=[p, repository.pk]),
        reverse("repository_refresh", args=[p, repository.pk]),
        reverse("repository_delete", args=[p, repository.pk]),
        reverse("note_new", args=[p]),
        reverse("note_detail", args=[p, note.pk]),
        reverse("note_edit", args=[p, note.pk]),
        reverse("note_delete", args=[p, note.pk]),
    ]


def debate_urls(debate) -> list[str]:
    names = [
        "debate_live",
        "debate_results",
        "debate_results_text",
        "debate_replay",
        "debate_export_markdown",
        "debate_export_json",
        "debate_save_note",
        "debate_rename",
        "debate_delete",
        "debate_share",
    ]
    return [reverse(name, args=[debate.id]) for name in names]


def test_another_user_gets_404_on_every_url_and_changes_nothing(
    other_client, project, repository, note, finished_debate
):
    assignment, document = Assignment.objects.get(), Document.objects.get()
    urls = project_urls(project, assignment, document, repository, note) + debate_urls(finished_debate)

    for url in urls:
        assert other_client.get(url).status_code in (404, 405), url
        response = other_client.post(url, {"name": "Mine now", "title": "Mine", "content": "x", "project": project.pk})
        assert response.status_code == 404, url

    # Nothing was changed, deleted or ticked.
    assert Project.objects.get().name == "Thesis"
    assert Note.objects.count() == 1 and Note.objects.get().title == "A note"
    assert Assignment.objects.get().checklist == [{"text": "Outline", "done": True}]
    assert Document.objects.count() == 1 and Repository.objects.count() == 1
    assert Debate.objects.get().topic == "Should the thesis use the Lisbon data?"


def test_the_owner_reaches_every_page(owner_client, project, repository, note, finished_debate):
    assignment, document = Assignment.objects.get(), Document.objects.get()
    for url in project_urls(project, assignment, document, repository, note)[:]:
        if "toggle" in url or "refresh" in url:
            continue  # POST only
        assert owner_client.get(url).status_code == 200, url


def test_another_user_cannot_save_a_note_into_someone_elses_project(client, other_user, project, finished_debate):
    """The owner of the debate is not the owner of the project: refused, nothing saved."""
    finished_debate.owner = other_user
    finished_debate.save(update_fields=["owner"])
    client.force_login(other_user)

    response = client.post(reverse("debate_save_note", args=[finished_debate.id]), {"project": project.pk})

    assert response.status_code == 404
    assert not Note.objects.filter(debate=finished_debate).exists()


def test_the_project_list_shows_only_ones_own(other_client, project):
    Project.objects.create(owner=Project.objects.get().owner, name="Secret plans")

    page = other_client.get(reverse("project_list")).content.decode()

    assert "Thesis" not in page and "Secret plans" not in page


def test_a_shared_link_never_names_the_project(client, owner_client, finished_debate):
    token = debate_share(debate=finished_debate)
    client.logout()

    shared = client.get(reverse("debate_shared", args=[token])).content.decode()

    assert finished_debate.topic in shared
    assert "Thesis" not in shared and "debate-context" not in shared and "Save to project" not in shared
    # while its owner sees it named
    client.force_login(finished_debate.owner)
    own = client.get(reverse("debate_live", args=[finished_debate.id])).content.decode()
    assert "Context:" in own and "Project “Thesis”" in own


def test_someone_allowed_to_watch_every_debate_sees_no_project_either(client, django_user_model, finished_debate):
    moderator = django_user_model.objects.create_superuser("moderator", password="a-long-test-passphrase-42")
    client.force_login(moderator)

    live = client.get(reverse("debate_live", args=[finished_debate.id])).content.decode()
    markdown = client.get(reverse("debate_export_markdown", args=[finished_debate.id])).content.decode()
    exported = client.get(reverse("debate_export_json", args=[finished_debate.id])).json()

    assert "Thesis" not in live and "Thesis" not in markdown
    assert exported["debate"]["context"] is None
    assert client.get(reverse("project_detail", args=[finished_debate.context_project_id])).status_code == 404
