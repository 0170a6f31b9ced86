"""The owner reviews candidate facts before any later debate takes them as settled: confirm,
put in their own words, or reject, on the memory pages (POST only, owner only: 404 for others)."""

import pytest
from django.urls import reverse

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from memory.models import Insight

pytestmark = pytest.mark.django_db

POINT = "Central banks should keep gold below a fifth of their reserves."
OTHER = "Gold pays no yield."


@pytest.fixture
def candidates(offline, alice, project):
    batch = embeddings.embed([POINT, OTHER], purpose=Purpose.DOCUMENT)
    return [
        Insight.objects.create(
            owner=alice, project=project if text == POINT else None, kind="agreed", text=text, confidence=0.9,
            agreed_by_all=True, review="candidate", embedding=vector, embedding_model=batch.model,
        )
        for text, vector in zip([POINT, OTHER], batch.vectors, strict=True)
    ]  # fmt: skip


def test_the_review_list_shows_every_candidate_and_the_project_page_its_own(client, alice, project, candidates):
    client.force_login(alice)
    page = client.get(reverse("fact_review_list")).content.decode()
    assert POINT in page and OTHER in page and "csrfmiddlewaretoken" in page
    assert reverse("fact_confirm", args=[candidates[0].pk]) in page
    assert reverse("fact_reject", args=[candidates[1].pk]) in page
    project_page = client.get(reverse("project_memory", args=[project.pk])).content.decode()
    assert reverse("fact_confirm", args=[candidates[0].pk]) in project_page
    assert reverse("fact_confirm", args=[candidates[1].pk]) not in project_page  # another scope


def test_confirming_makes_it_established_and_takes_it_off_the_list(client, alice, project, candidates):
    client.force_login(alice)
    response = client.post(reverse("fact_confirm", args=[candidates[0].pk]), {"next": "project"})
    assert response.status_code == 302 and response["Location"] == reverse("project_memory", args=[project.pk])
    fact = Insight.objects.get(pk=candidates[0].pk)
    assert fact.review == "confirmed" and fact.established
    assert reverse("fact_confirm", args=[fact.pk]) not in client.get(reverse("fact_review_list")).content.decode()
    # Reviewed once: confirming or rejecting it again is not found.
    assert client.post(reverse("fact_reject", args=[fact.pk])).status_code == 404


def test_editing_saves_the_owners_words_embeds_them_again_and_confirms(client, alice, candidates):
    client.force_login(alice)
    before = list(candidates[1].embedding)
    words = "Gold, unlike bonds, pays its holders no yield."
    response = client.post(reverse("fact_edit", args=[candidates[1].pk]), {"text": f"  {words} "})
    assert response.status_code == 302 and response["Location"] == reverse("fact_review_list")
    fact = Insight.objects.get(pk=candidates[1].pk)
    assert fact.text == words and fact.review == "confirmed"
    assert fact.embedding_model == embeddings.current_model() and list(fact.embedding) != before


def test_an_empty_edit_says_so_and_changes_nothing(client, alice, candidates):
    client.force_login(alice)
    response = client.post(reverse("fact_edit", args=[candidates[1].pk]), {"text": "   "}, follow=True)
    assert "Type the fact, or reject it instead." in response.content.decode()
    fact = Insight.objects.get(pk=candidates[1].pk)
    assert fact.text == OTHER and fact.review == "candidate"


def test_rejecting_keeps_it_out_of_every_later_recall(client, alice, candidates):
    client.force_login(alice)
    client.post(reverse("fact_reject", args=[candidates[0].pk]))
    fact = Insight.objects.get(pk=candidates[0].pk)
    assert fact.review == "rejected" and not fact.established


def test_another_user_gets_404_and_changes_nothing(client, bob, candidates):
    client.force_login(bob)
    assert OTHER not in client.get(reverse("fact_review_list")).content.decode()
    for name in ("fact_confirm", "fact_reject"):
        assert client.post(reverse(name, args=[candidates[0].pk])).status_code == 404
    assert client.post(reverse("fact_edit", args=[candidates[0].pk]), {"text": "Mine now."}).status_code == 404
    assert set(Insight.objects.values_list("review", flat=True)) == {"candidate"}
    assert Insight.objects.get(pk=candidates[0].pk).text == POINT


def test_review_actions_take_only_a_post(client, alice, candidates):
    client.force_login(alice)
    assert client.get(reverse("fact_confirm", args=[candidates[0].pk])).status_code == 405
    assert Insight.objects.get(pk=candidates[0].pk).review == "candidate"
