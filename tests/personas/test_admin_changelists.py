import pytest
from django.core.management import call_command

from personas.models import Deck, Persona

pytestmark = pytest.mark.django_db


@pytest.fixture
def seeded():
    call_command("loadseed")


def test_it_lists_the_seed_personas(admin_client, seeded):
    response = admin_client.get("/admin/personas/persona/")

    assert response.status_code == 200
    page = response.content.decode()
    for persona in Persona.objects.all():
        assert persona.name in page
    assert "Import contracts" in page


def test_it_lists_the_seed_decks_with_their_persona_counts(admin_client, seeded):
    response = admin_client.get("/admin/personas/deck/")

    assert response.status_code == 200
    rows = {deck.name: deck.persona_total for deck in response.context["cl"].result_list}
    assert rows == {deck.name: deck.personas.count() for deck in Deck.objects.all()}
    assert len(rows) >= 2


def test_it_searches_and_filters_personas(admin_client, seeded):
    deck = Deck.objects.get(slug="money-and-markets")

    searched = admin_client.get("/admin/personas/persona/", {"q": "macro-trader"})
    filtered = admin_client.get("/admin/personas/persona/", {"decks__id__exact": deck.pk})

    assert [p.persona_id for p in searched.context["cl"].result_list] == ["macro-trader"]
    assert {p.persona_id for p in filtered.context["cl"].result_list} == set(
        deck.personas.values_list("persona_id", flat=True)
    )


def test_it_shows_a_persona_with_its_excerpts(admin_client, seeded):
    persona = Persona.objects.get(persona_id="labour-organiser")

    response = admin_client.get(f"/admin/personas/persona/{persona.pk}/change/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Download contract JSON" in page
    assert persona.anchor_excerpts.first().excerpt_id in page
