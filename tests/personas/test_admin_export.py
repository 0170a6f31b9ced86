import io
import json
import zipfile

import pytest

from personas.models import Persona
from personas.services import persona_contract_json
from tests.factories import AnchorExcerptFactory, DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/personas/persona/"


def export(client, personas):
    return client.post(
        CHANGELIST, {"action": "export_selected", "_selected_action": [persona.pk for persona in personas]}
    )


def test_it_downloads_one_persona_as_a_json_file(admin_client):
    bear = PersonaFactory(persona_id="the-macro-bear")
    AnchorExcerptFactory(persona=bear)

    response = export(admin_client, [bear])

    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="the-macro-bear.json"'
    assert response.content.decode() == persona_contract_json(bear)
    assert json.loads(response.content)["personaId"] == "the-macro-bear"


def test_it_downloads_several_personas_as_a_zip(admin_client):
    bear = PersonaFactory(persona_id="the-macro-bear")
    bull = PersonaFactory(persona_id="the-perma-bull")
    other = PersonaFactory(persona_id="the-outsider")
    DeckFactory(slug="markets", personas=[bear, bull])
    DeckFactory(slug="mixed", personas=[bear, other])

    response = export(admin_client, [bear, bull])

    assert response["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        assert sorted(archive.namelist()) == ["decks.json", "the-macro-bear.json", "the-perma-bull.json"]
        decks = json.loads(archive.read("decks.json"))
    # "mixed" has a member that was not exported; importing it back would shrink the deck.
    assert [deck["slug"] for deck in decks] == ["markets"]


def test_each_persona_page_offers_its_contract(admin_client):
    bear = PersonaFactory(persona_id="the-macro-bear")

    response = admin_client.get(f"/admin/personas/persona/{bear.pk}/contract.json")

    assert response["Content-Disposition"] == 'attachment; filename="the-macro-bear.json"'
    assert response.content.decode() == persona_contract_json(Persona.objects.get())
