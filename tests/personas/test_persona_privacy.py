"""Another user's private persona or deck: a 404 on every page, never dealt into a hand."""

import pytest
from django.core.exceptions import ValidationError

from debates.models import Debate
from debates.services.lifecycle import debate_create
from personas.models import Deck

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    ["/personas/{pk}/", "/personas/{pk}/edit/", "/personas/{pk}/contract.json", "/personas/{pk}/delete/"],
)
def test_another_users_persona_is_a_404(alice, others_persona, path):
    assert alice.get(path.format(pk=others_persona.pk)).status_code == 404


def test_another_users_persona_cannot_be_cloned(alice, others_persona):
    assert alice.post(f"/personas/{others_persona.pk}/clone/").status_code == 404


def test_another_users_persona_memory_page_is_a_404(alice, others_persona):
    assert alice.get(f"/memory/personas/{others_persona.persona_id}/").status_code == 404


@pytest.mark.parametrize("path", ["/decks/{pk}/", "/decks/{pk}/edit/", "/decks/{pk}/delete/"])
def test_another_users_deck_is_a_404(alice, others_deck, path):
    assert alice.get(path.format(pk=others_deck.pk)).status_code == 404


def test_another_users_persona_cannot_join_my_deck(alice, user, others_persona):
    deck = Deck.objects.create(owner=user, slug="mine", name="Mine")

    assert alice.post(f"/decks/{deck.pk}/add/", {"persona": others_persona.pk}).status_code == 404
    response = alice.post(f"/decks/{deck.pk}/edit/", {"name": "Mine", "personas": [others_persona.pk]})
    assert response.status_code == 200 and "is not one of the available choices" in response.content.decode()
    assert not deck.personas.exists()


def test_the_setup_page_does_not_offer_another_users_deck_or_persona(alice, seed_deck, others_deck, others_persona):
    seed_deck.personas.add(others_persona)  # even slipped into a seed deck (by the admin), it stays private

    content = alice.get("/debates/new/").content.decode()
    hand = alice.get("/debates/new/hand/", {"deck": others_deck.pk}).content.decode()

    assert "Mallory" not in content
    assert "Mallory" not in hand


def test_a_debate_cannot_be_started_with_another_users_persona(alice, seed_deck, seed_persona, others_persona):
    seed_deck.personas.add(others_persona)

    response = alice.post(
        "/debates/new/",
        {
            "deck": seed_deck.pk,
            "personas": [seed_persona.pk, others_persona.pk],
            "topic": "Is gold obsolete?",
            "length": "short",
            "mode": "dialogue",
        },
    )

    assert response.status_code == 200
    assert not Debate.objects.exists()


def test_a_debate_cannot_be_started_from_another_users_deck(alice, others_deck, seed_persona):
    response = alice.post(
        "/debates/new/",
        {
            "deck": others_deck.pk,
            "personas": [seed_persona.pk],
            "topic": "Is gold obsolete?",
            "length": "short",
            "mode": "dialogue",
        },
    )

    assert response.status_code == 200 and not Debate.objects.exists()


def test_the_service_refuses_another_users_persona(user, seed_persona, others_persona):
    with pytest.raises(ValidationError) as refused:
        debate_create(owner=user, topic="Is gold obsolete?", personas=[seed_persona, others_persona])

    assert "Pick personas from the seed decks or your own." in refused.value.message_dict["personas"]
    assert not Debate.objects.exists()


def test_the_service_refuses_another_users_deck(user, seed_persona, own_persona, others_deck):
    with pytest.raises(ValidationError):
        debate_create(owner=user, topic="Is gold obsolete?", personas=[seed_persona, own_persona], deck=others_deck)


def test_the_owner_deals_their_own_persona_from_their_own_deck(alice, user, seed_persona, own_persona, monkeypatch):
    from debates.services import lifecycle

    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: None)
    deck = Deck.objects.create(owner=user, slug="mine", name="Mine")
    deck.personas.set([seed_persona, own_persona])

    setup = alice.get("/debates/new/", {"deck": deck.pk}).content.decode()
    response = alice.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [seed_persona.pk, own_persona.pk],
            "topic": "Is gold obsolete?",
            "length": "short",
            "mode": "dialogue",
        },
    )

    assert "Alice&#x27;s Own" in setup and 'href="/decks/new/"' in setup
    debate = Debate.objects.get()
    assert response.status_code == 302
    assert set(debate.personas.all()) == {seed_persona, own_persona}


def test_the_public_home_page_lists_seed_decks_only(client, seed_deck, others_deck):
    content = client.get("/").content.decode()

    assert "Markets" in content and "Mallory" not in content


def test_rundebate_refuses_a_private_persona_of_someone_else(seed_persona, others_persona):
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="Pick personas from the seed decks or your own."):
        call_command("rundebate", "--personas", "mallorys-secret,the-macro-bear", "--topic", "Is gold obsolete?")

    assert not Debate.objects.exists()
