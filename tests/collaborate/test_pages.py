"""A collaboration on its pages: two columns side by side, the artifact as sanitised Markdown,
every model-written word kept inert; Copy, Download and Save for the owner alone."""

import re

import pytest

from debates import fragments
from debates.models import Event, Message
from debates.payloads import EventKind
from debates.selectors import debate_view
from orchestration.run import debate_run
from projects.models import Document, Project
from tests.collaborate.conftest import ARTIFACT

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'
LIVE_MARKUP = ["<script>alert(1)", "<img src=x", "<img", "<script>"]
LIVE_ATTRIBUTE = re.compile(r"<[^>]*\bonerror|href=\"javascript:", re.I)  # in a tag, not as inert text


@pytest.fixture
def finished(collab_api, new_collaboration, user):
    collab_api(hostile=HOSTILE, artifact=ARTIFACT + f"\n\n{HOSTILE}\n\n[click](javascript:alert(3))")
    return debate_run(debate_id=new_collaboration(owner=user).id)


def test_the_live_page_shows_the_two_roles_side_by_side_and_the_artifact_as_safe_markdown(finished, owner_client, user):
    Project.objects.create(owner=user, name="Shortener")
    page = owner_client.get(f"/debates/{finished.id}/").content.decode()

    assert 'id="collab-column-0"' in page and 'id="collab-column-1"' in page
    column_0, column_1 = page.split('id="collab-column-0"')[1].split('id="collab-column-1"')
    assert "<h2>Architect: First answer</h2>" in column_0 and "<h2>Architect: Revised answer</h2>" in column_0
    assert "Reviewer" not in column_0.split("</section>")[0].replace("Reviewer</h2", "")
    assert "Reviewer: First answer" in column_1.split('id="collab-artifact"')[0]
    artifact = page.split('id="collab-artifact"')[1]
    assert re.search(r'<div id="msg-text-\d+" class="msg-text msg-markdown"><h1>URL shortener design</h1>', artifact)
    assert "<h2>Storage</h2>" in artifact and "<li>Postgres, base62 keys</li>" in artifact
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for marker in LIVE_MARKUP:
        assert marker not in page.replace('<script src="', "")  # the site's own static scripts only
    assert not LIVE_ATTRIBUTE.search(page)
    assert 'id="copy-artifact"' in page and 'id="download-artifact"' in page and 'id="save-artifact"' in page
    assert 'id="chat-log"' not in page  # no main channel, no crux drawer
    assert "The artifact is written" in page


def test_the_results_page_and_the_replay_show_the_artifact_and_the_columns(finished, owner_client):
    results = owner_client.get(f"/debates/{finished.id}/results/").content.decode()
    assert '<div class="msg msg-markdown" id="results-artifact"><h1>URL shortener design</h1>' in results
    replay = owner_client.get(f"/debates/{finished.id}/replay/?step=999").content.decode()
    assert 'id="collab-column-0"' in replay and "<h1>URL shortener design</h1>" in replay
    for page in (results, replay):
        for marker in LIVE_MARKUP:
            assert marker not in page.replace('<script src="', "")
        assert not LIVE_ATTRIBUTE.search(page)


def test_each_message_started_goes_to_its_roles_column_and_the_artifact_below(finished):
    started = Event.objects.filter(debate=finished, kind=EventKind.MESSAGE_STARTED).order_by("seq")
    targets = []
    for event in started:
        html = fragments.for_event(debate_view(debate_id=finished.id, upto=event.seq), event.kind, event.payload)
        targets.append(html.split('hx-swap-oob="beforeend:#')[1].split('"')[0])
        for marker in LIVE_MARKUP:
            assert marker not in html
        assert not LIVE_ATTRIBUTE.search(html)
    assert sorted(targets[:2]) == ["collab-column-0", "collab-column-1"]
    assert sorted(targets[2:4]) == ["collab-column-0", "collab-column-1"]
    assert targets[4] == "collab-artifact"
    snapshot = fragments.snapshot(debate_view(debate_id=finished.id))
    assert (
        '<section id="collaboration" class="collaboration" aria-label="Collaboration" hx-swap-oob="true">' in snapshot
    )


def test_the_owner_downloads_and_saves_the_artifact_to_a_project_and_nobody_else_can(
    finished, owner_client, user, client, django_user_model
):
    download = owner_client.get(f"/debates/{finished.id}/artifact.md")
    assert download.status_code == 200 and download["Content-Type"].startswith("text/markdown")
    assert download["Content-Disposition"] == 'attachment; filename="url-shortener-design.md"'
    assert download.content.decode().startswith(ARTIFACT)

    project = Project.objects.create(owner=user, name="Shortener")
    saved = owner_client.post(f"/debates/{finished.id}/save-artifact/", {"project": project.pk})
    document = Document.objects.get(project=project)
    assert saved.status_code == 302 and saved["Location"] == f"/projects/{project.pk}/documents/{document.pk}/"
    assert document.title == "URL shortener design" and document.kind == "md"
    assert document.filename == "url-shortener-design.md" and document.text == finished.results["artifact"]
    assert "URL shortener design" in owner_client.get(f"/projects/{project.pk}/").content.decode()

    mallory = django_user_model.objects.create_user("mallory", password="pw-for-mallory-123")
    theirs = Project.objects.create(owner=mallory, name="Mallory's")
    assert owner_client.post(f"/debates/{finished.id}/save-artifact/", {"project": theirs.pk}).status_code == 404
    client.force_login(mallory)
    assert client.post(f"/debates/{finished.id}/save-artifact/", {"project": theirs.pk}).status_code == 404
    assert client.get(f"/debates/{finished.id}/artifact.md").status_code == 404
    assert client.get(f"/debates/{finished.id}/").status_code == 404
    assert Document.objects.count() == 1


def test_a_debate_without_an_artifact_has_nothing_to_download_or_save(
    collab_api, new_collaboration, user, owner_client
):
    debate = new_collaboration(owner=user)  # not run yet
    project = Project.objects.create(owner=user, name="Shortener")
    assert owner_client.get(f"/debates/{debate.id}/artifact.md").status_code == 404
    response = owner_client.post(f"/debates/{debate.id}/save-artifact/", {"project": project.pk}, follow=True)
    assert "no artifact yet" in response.content.decode() and not Document.objects.exists()


def test_setup_starts_a_collaboration_with_a_hand_of_two(owner_client, deck, personas, monkeypatch):
    from debates.models import Debate
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: None)
    form = {"deck": deck.pk, "topic": "A URL shortener", "length": "short", "mode": "collaborate"}

    page = owner_client.get("/debates/new/").content.decode()
    three = owner_client.post("/debates/new/", {**form, "personas": [p.pk for p in personas[:3]]})
    two = owner_client.post("/debates/new/", {**form, "personas": [p.pk for p in personas[:2]]})

    assert '<input type="radio" name="mode" value="collaborate"' in page
    assert "takes a hand of two: the Architect and the Reviewer" in three.content.decode()
    debate = Debate.objects.get()
    assert (two.status_code, debate.mode) == (302, "collaborate")
    assert debate.participants.count() == 2 and not Message.objects.exists()
