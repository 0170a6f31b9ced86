import pytest

from personas.models import Deck

pytestmark = pytest.mark.django_db


def test_a_user_builds_a_deck_of_seed_and_own_personas(alice, user, seed_persona, own_persona):
    response = alice.post(
        "/decks/new/", {"name": "My table", "description": "", "personas": [seed_persona.pk, own_persona.pk]}
    )

    deck = Deck.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == f"/decks/{deck.pk}/"
    assert deck.name == "My table" and deck.slug.startswith("my-table-")
    assert set(deck.personas.all()) == {seed_persona, own_persona}
    assert "Alice&#x27;s Own" in alice.get(f"/decks/{deck.pk}/").content.decode()


def test_adds_and_removes_personas(alice, user, seed_persona, own_persona):
    deck = Deck.objects.create(owner=user, slug="mine", name="Mine")

    alice.post(f"/decks/{deck.pk}/add/", {"persona": own_persona.pk, "next": "persona"})
    alice.post(f"/decks/{deck.pk}/add/", {"persona": seed_persona.pk})
    assert set(deck.personas.all()) == {seed_persona, own_persona}

    alice.post(f"/decks/{deck.pk}/remove/{seed_persona.pk}/")
    assert list(deck.personas.all()) == [own_persona]


def test_edit_sets_exactly_the_chosen_members(alice, user, seed_persona, own_persona):
    deck = Deck.objects.create(owner=user, slug="mine", name="Mine")
    deck.personas.set([seed_persona])

    alice.post(f"/decks/{deck.pk}/edit/", {"name": "Renamed", "personas": [own_persona.pk]})

    deck.refresh_from_db()
    assert deck.name == "Renamed" and list(deck.personas.all()) == [own_persona]


def test_a_seed_deck_cannot_be_edited_by_a_user(alice, seed_deck, own_persona):
    assert alice.get(f"/decks/{seed_deck.pk}/edit/").status_code == 404
    assert alice.post(f"/decks/{seed_deck.pk}/add/", {"persona": own_persona.pk}).status_code == 404
    assert alice.get(f"/decks/{seed_deck.pk}/").status_code == 200


def test_delete_keeps_the_personas(alice, user, own_persona):
    deck = Deck.objects.create(owner=user, slug="mine", name="Mine")
    deck.personas.set([own_persona])

    alice.post(f"/decks/{deck.pk}/delete/")

    assert not Deck.objects.filter(pk=deck.pk).exists()
    own_persona.refresh_from_db()
