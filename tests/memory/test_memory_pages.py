"""Memory pages: a project's memory (list, delete), a persona's, and what one debate recalled,
named on its live page to its owner. Anyone else gets a 404 and deletes nothing."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from debates import fragments
from debates.models import Event
from debates.selectors import debate_events
from debates.services.lifecycle import debate_create
from debates.state import fold
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from memory.models import Insight, PersonaMemory
from memory.services.recall import debate_recall

pytestmark = pytest.mark.django_db

FACT = "Central banks should keep gold below a fifth of their reserves."
FINDING = "Gold did poorly against bonds from 1980 to 2000."
CONCEDED = "You conceded that central banks hold gold although it pays no yield."


@pytest.fixture
def memories(offline, alice, project, personas):
    vectors = embeddings.embed([FACT, FINDING, CONCEDED], purpose=Purpose.DOCUMENT)
    fact, finding, conceded = vectors.vectors
    model = vectors.model
    common = dict(owner=alice, project=project, embedding_model=model)
    return {
        "fact": Insight.objects.create(
            kind="decision",
            text=FACT,
            confidence=0.85,
            agreed_by_all=True,
            review="confirmed",
            embedding=fact,
            **common,
        ),
        "finding": Insight.objects.create(kind="finding", text=FINDING, confidence=0.8, embedding=finding, **common),
        "conceded": PersonaMemory.objects.create(
            persona=personas[0], kind="concession", text=CONCEDED, importance=8, embedding=conceded, **common
        ),
    }


def login(client, user):
    client.force_login(user)
    return client


def test_the_project_memory_page_lists_and_deletes_the_owners_memories(client, alice, project, memories):
    login(client, alice)
    page = client.get(reverse("project_memory", args=[project.pk])).content.decode()
    assert FACT in page and FINDING in page and CONCEDED in page and "established" in page
    assert (
        reverse("project_memory", args=[project.pk])
        in client.get(reverse("project_detail", args=[project.pk])).content.decode()
    )

    response = client.post(reverse("insight_delete", args=[memories["finding"].pk]))
    assert response.status_code == 302 and response["Location"] == reverse("project_memory", args=[project.pk])
    assert not Insight.objects.filter(text=FINDING).exists()
    client.post(reverse("persona_memory_delete", args=[memories["conceded"].pk]))
    assert not PersonaMemory.objects.exists()
    assert FINDING not in client.get(reverse("project_memory", args=[project.pk])).content.decode()


def test_another_user_gets_404_and_deletes_nothing(client, alice, bob, project, memories, personas):
    debate = debate_create(owner=alice, topic="Gold?", personas=personas, context=project)
    login(client, bob)
    assert client.get(reverse("project_memory", args=[project.pk])).status_code == 404
    assert client.get(reverse("debate_memory", args=[debate.pk])).status_code == 404
    assert client.post(reverse("insight_delete", args=[memories["fact"].pk])).status_code == 404
    assert client.post(reverse("persona_memory_delete", args=[memories["conceded"].pk])).status_code == 404
    assert Insight.objects.count() == 2 and PersonaMemory.objects.count() == 1
    # A persona's page shows each user only their own memories of it.
    page = client.get(reverse("persona_memory", args=[personas[0].persona_id])).content.decode()
    assert CONCEDED not in page
    client.logout()
    assert client.get(reverse("project_memory", args=[project.pk])).status_code == 302  # to the login page


def test_a_debate_names_what_it_recalled(client, alice, project, memories, personas):
    debate = debate_create(
        owner=alice, topic="How much gold should central banks hold?", personas=personas, context=project
    )

    debate_recall(debate=debate)
    debate_recall(debate=debate)  # a resumed run: the same recall, counted once

    event = Event.objects.get(debate=debate, kind="memory_recalled")
    assert event.payload["facts"] == 1 and event.payload["persona_memories"] == 1
    assert FACT not in str(event.payload)  # events reach share-link viewers: counts only
    assert Insight.objects.get(text=FACT).times_retrieved == 1
    # The live update every viewer gets: the counts, and the link only the owner's page shows.
    view = fold(str(debate.id), debate_events(debate_id=debate.id))
    pushed = fragments.for_event(view, event.kind, event.payload)
    assert 'id="debate-memory"' in pushed and "1 established fact" in pushed and FACT not in pushed
    assert 'class="owner-only"' in pushed
    login(client, alice)
    live = client.get(reverse("debate_live", args=[debate.pk])).content.decode()
    assert "Recalled from earlier debates: 1 established fact" in live
    assert reverse("debate_memory", args=[debate.pk]) in live
    page = client.get(reverse("debate_memory", args=[debate.pk])).content.decode()
    assert FACT in page and CONCEDED in page and "Found by meaning" in page
    # Why: the closeness in meaning against the floor it cleared, and whose memory was searched.
    recalled = Insight.objects.get(text=FACT).recalls.get()
    assert f"close in meaning ({recalled.similarity:.3f}, a fact needs" in page
    assert "Searched this project&#x27;s debates (“Thesis”)" in page


def test_the_admin_lists_and_opens_memory(client, memories, personas, alice, project):
    admin = get_user_model().objects.create_superuser("root", password="a-long-test-passphrase-42")
    client.force_login(admin)
    for model, obj in (("insight", memories["fact"]), ("personamemory", memories["conceded"])):
        listing = client.get(reverse(f"admin:memory_{model}_changelist"))
        assert listing.status_code == 200 and obj.text[:30] in listing.content.decode()
        assert client.get(reverse(f"admin:memory_{model}_change", args=[obj.pk])).status_code == 200
    debate = debate_create(owner=alice, topic="Gold?", personas=personas, context=project)
    debate_recall(debate=debate)
    assert client.get(reverse("admin:memory_memoryrecall_changelist")).status_code == 200
