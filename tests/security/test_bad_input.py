"""The bad input that made 500s, one spec each: a NUL, a number too long to be an id, JSON with a
NUL or a number past reason get a 400, a 404 or the form's error (gateways/input_rules.py). The
fuzzing test (test_fuzz_every_url.py) visits every URL and form the same way."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from memory.models import Insight
from personas.models import Persona
from projects.models import Note, Project
from tests.atlas.builders import debate_with_cards
from tests.factories import DeckFactory, PersonaFactory
from tests.personas.samples import contract_data

pytestmark = pytest.mark.django_db

DIGITS = "9" * 5000


@pytest.fixture
def alice(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def persona(user):
    return PersonaFactory(persona_id="own-voice", name="Own Voice", owner=user)


def test_a_share_token_with_a_nul_is_a_bad_request_for_anyone(client):
    assert client.get("/shared/abc%00def/").status_code == 400


@pytest.mark.parametrize("url", ["/?mode=%00", "/debates/new/?mode=%00", "/debates/?q=%00", "/atlas/?q=a%00"])
def test_a_nul_in_a_query_parameter_is_a_bad_request(alice, url):
    assert alice.get(url).status_code == 400


def test_a_nul_in_the_project_search_is_a_bad_request(alice, user):
    project = Project.objects.create(owner=user, name="P")

    assert alice.get(f"/projects/{project.pk}/?q=%00").status_code == 400


def test_a_nul_in_a_fact_edit_is_a_bad_request_and_changes_nothing(alice, user):
    fact = Insight.objects.create(owner=user, kind="agreed", text="Gold", confidence=0.9, review="candidate")

    assert alice.post(f"/memory/facts/{fact.pk}/edit/", {"text": "Gold\x00"}).status_code == 400
    fact.refresh_from_db()
    assert fact.text == "Gold"


def test_a_nul_in_a_personas_phrase_list_is_a_bad_request(alice, persona):
    response = alice.post(f"/personas/{persona.pk}/edit/", {"name": "Own Voice", "vocabulary": "ledger\x00"})

    assert response.status_code == 400
    persona.refresh_from_db()
    assert persona.vocabulary == ["ledger", "signal"]


def test_a_nul_escaped_in_a_personas_json_field_is_the_forms_error(alice, persona):
    fields = {
        "name": "Own Voice",
        "evidence_policy": json.dumps({"acceptedSources": ["a\u0000b"], "rejectedSources": [], "weighting": "w"}),
    }

    response = alice.post(f"/personas/{persona.pk}/edit/", fields)

    assert response.status_code == 200 and "Enter valid JSON: it holds a NUL character." in response.content.decode()


@pytest.mark.parametrize("upload", [False, True])
def test_an_imported_contract_whose_name_holds_a_nul_is_refused_with_one_line(alice, upload):
    text = json.dumps(contract_data("nul-name", name="Nul\u0000Name"))  # written as \u0000 in the file
    data = {"file": SimpleUploadedFile("nul.json", text.encode())} if upload else {"text": text}

    response = alice.post("/personas/import/", data)

    assert response.status_code == 200 and "a NUL character in a name or a value" in response.content.decode()
    assert not Persona.objects.filter(persona_id="nul-name").exists()


@pytest.mark.parametrize("value", ["abc", DIGITS, "99999999999999999999999", ""])
def test_a_deck_add_of_a_persona_that_is_not_an_id_is_not_found(alice, user, persona, value):
    deck = DeckFactory(slug="mine", name="Mine")
    deck.owner = user
    deck.save()

    assert alice.post(f"/decks/{deck.pk}/add/", {"persona": value}).status_code == 404


@pytest.mark.parametrize("what", ["save-note", "save-artifact"])
def test_saving_to_a_project_whose_id_is_5000_digits_is_not_found(alice, user, what):
    personas = [PersonaFactory(persona_id=f"p{n}", name=f"P {n}") for n in range(2)]
    debate = debate_with_cards(user, topic="Is it?", personas=personas)

    assert alice.post(f"/debates/{debate.pk}/{what}/", {"project": DIGITS}).status_code == 404
    assert not Note.objects.exists()


@pytest.mark.parametrize("value", ["", DIGITS, '{"a": 1e999}', '["\\u0000"]'])
def test_the_admins_json_fields_take_bad_json_as_the_forms_error(client, user, value):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "a-long-test-passphrase-42")
    client.force_login(admin)
    note = Note.objects.create(project=Project.objects.create(owner=user, name="P"), title="N", tags=["x"])

    fields = {"project": note.project_id, "title": "N", "content": "", "tags": value}

    response = client.post(f"/admin/projects/note/{note.pk}/change/", fields)

    assert response.status_code in (200, 302)
    note.refresh_from_db()
    assert note.tags == ([] if value == "" else ["x"])  # cleared: its default, not a NULL
