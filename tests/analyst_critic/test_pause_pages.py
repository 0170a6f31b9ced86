"""The live page's Pause / Continue / Stop, and the synthesis card's Copy, Save to project and Ask a
new question: the owner's only (404 for anyone else), server-rendered like every fragment."""

import re

import pytest

from debates import fragments
from debates.models import Debate, Event
from debates.payloads import EventKind
from debates.selectors import debate_view
from orchestration.run import debate_run
from projects.models import Note, Project
from tests.analyst_critic.conftest import STEP_BY_STEP

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def queued(monkeypatch):
    from debates.services import lifecycle

    ids = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: ids.append(debate_id))
    return ids


@pytest.fixture
def mallory(django_user_model):
    from django.test import Client

    client = Client()
    client.force_login(django_user_model.objects.create_user("mallory", password="pw-for-mallory-123"))
    return client


def test_a_paused_debate_shows_continue_and_the_owner_continues_it(
    critic_api, new_ac_debate, owner_client, user, queued
):
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(owner=user, auto_continue=False).id)

    page = owner_client.get(f"/debates/{debate.id}/").content.decode()
    assert 'class="status-pill status-paused">Paused<' in page
    assert 'id="continue-debate"' in page and 'id="stop-debate"' in page and 'id="pause-debate"' not in page
    assert "Paused after round 1 at 33% consensus" in page
    assert '<span class="status-rounds">1 / 5</span>' in page

    # The pushed fragment of the pause carries the same controls.
    paused = Event.objects.get(debate=debate, kind=EventKind.DEBATE_PAUSED)
    html = fragments.for_event(debate_view(debate_id=debate.id, upto=paused.seq), paused.kind, paused.payload)
    assert 'id="continue-debate"' in html and f'data-seq="{paused.seq}"' in html

    response = owner_client.post(f"/debates/{debate.id}/continue/", HTTP_HX_REQUEST="true")

    assert response.status_code == 200 and "Continuing" in response.content.decode()
    assert queued == [debate.id]
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.PENDING
    continued = Event.objects.filter(debate=debate).order_by("-seq").first()
    assert continued.kind == EventKind.DEBATE_CONTINUED
    html = fragments.for_event(debate_view(debate_id=debate.id), continued.kind, continued.payload)
    assert 'id="pause-debate"' in html and 'id="continue-debate"' not in html


def test_the_owner_pauses_a_running_debate(new_ac_debate, owner_client, user):
    debate = new_ac_debate(owner=user)
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.RUNNING)

    response = owner_client.post(f"/debates/{debate.id}/pause/", HTTP_HX_REQUEST="true")

    assert "Pausing after the current turn" in response.content.decode()
    assert Debate.objects.get(pk=debate.pk).pause_requested


def test_another_user_cannot_pause_continue_stop_or_ask_again(critic_api, new_ac_debate, user, mallory, queued):
    critic_api(STEP_BY_STEP)
    paused = debate_run(debate_id=new_ac_debate(owner=user, auto_continue=False).id)
    running = new_ac_debate(owner=user)
    Debate.objects.filter(pk=running.pk).update(status=Debate.Status.RUNNING)

    assert mallory.post(f"/debates/{running.id}/pause/").status_code == 404
    assert mallory.post(f"/debates/{paused.id}/continue/").status_code == 404
    assert mallory.post(f"/debates/{paused.id}/stop/").status_code == 404
    assert mallory.get(f"/debates/{paused.id}/ask-again/").status_code == 404
    assert not Debate.objects.get(pk=running.pk).pause_requested
    assert Debate.objects.get(pk=paused.pk).status == Debate.Status.PAUSED and queued == []


def test_the_synthesis_card_copies_saves_to_a_project_and_asks_again(
    critic_api, new_ac_debate, owner_client, user, mallory, deck
):
    project = Project.objects.create(owner=user, name="Retirement")
    critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(owner=user, context=project).id)
    synthesis = debate.results["synthesis"]

    page = owner_client.get(f"/debates/{debate.id}/").content.decode()
    assert 'id="synthesis-card"' in page and f'data-copy-text="{synthesis}"' in page
    assert 'id="save-synthesis"' in page and 'name="what"' in page and 'id="ask-again"' in page

    response = owner_client.post(f"/debates/{debate.id}/save-note/", {"project": project.pk, "what": "synthesis"})

    note = Note.objects.get(project=project)
    assert response.status_code == 302 and response["Location"] == f"/projects/{project.pk}/notes/{note.pk}/"
    assert note.title == f"Synthesis: {debate.topic}" and note.tags[0] == "synthesis"
    assert synthesis in note.content
    assert "Where it landed: Consensus (100% of the points agreed after 3 rounds)" in note.content
    # Only into one's own project.
    theirs = Project.objects.create(owner=user, name="Alice's other")
    assert (
        mallory.post(f"/debates/{debate.id}/save-note/", {"project": theirs.pk, "what": "synthesis"}).status_code == 404
    )

    again = owner_client.get(f"/debates/{debate.id}/ask-again/")
    assert again.status_code == 302 and again["Location"].startswith("/debates/new/?mode=analyst_critic&")
    assert f"context=project%3A{project.pk}" in again["Location"]
    setup = owner_client.get(again["Location"]).content.decode()
    assert f'<option value="project:{project.pk}" selected>' in setup
    assert re.search(r'<input type="radio" name="mode" value="analyst_critic"[^>]* checked', setup)
    assert re.search(r'<textarea name="topic"[^>]*>\s*</textarea>', setup)  # the new question is the user's
