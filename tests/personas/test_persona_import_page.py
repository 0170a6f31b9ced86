"""Importing one contract JSON as one's own persona: upload or paste, clear errors, all or nothing."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from personas.models import AnchorExcerpt, Persona
from tests.personas.samples import contract_data

pytestmark = pytest.mark.django_db


def test_a_pasted_contract_becomes_a_private_persona(alice, user):
    response = alice.post("/personas/import/", {"text": json.dumps(contract_data("my-bear"))})

    persona = Persona.objects.get(persona_id="my-bear")
    assert response.status_code == 302 and response["Location"] == f"/personas/{persona.pk}/"
    assert persona.owner == user
    assert persona.anchor_excerpts.count() == 2


def test_an_uploaded_contract_updates_the_users_own_persona(alice, user):
    alice.post("/personas/import/", {"text": json.dumps(contract_data("my-bear"))})
    upload = SimpleUploadedFile(
        "my-bear.json", json.dumps(contract_data("my-bear", bias="Now sees bubbles less.")).encode()
    )

    response = alice.post("/personas/import/", {"file": upload})

    assert response.status_code == 302
    assert Persona.objects.get(persona_id="my-bear").bias == "Now sees bubbles less."


def test_errors_name_the_field_and_nothing_is_stored(alice):
    data = contract_data("my-bear", personality="")
    del data["evidencePolicy"]["weighting"]
    data["anchorExcerpts"][1]["content"] = ""

    response = alice.post("/personas/import/", {"text": json.dumps(data)})

    content = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported" in content
    assert "pasted contract: personality: Must not be empty" in content
    assert "pasted contract: evidencePolicy.weighting: Field required" in content
    assert "pasted contract: anchorExcerpts[1].content: Must not be empty" in content
    assert not Persona.objects.exists() and not AnchorExcerpt.objects.exists()


def test_invalid_json_is_reported_with_its_line(alice):
    upload = SimpleUploadedFile("broken.json", b'{\n  "personaId": "x",\n  oops\n}')

    content = alice.post("/personas/import/", {"file": upload}).content.decode()

    assert "broken.json: invalid JSON at line 3, column 3" in content
    assert not Persona.objects.exists()


def test_a_seed_persona_id_is_refused_and_another_users_is_never_touched(alice, user, seed_persona, others_persona):
    before = (seed_persona.bias, seed_persona.anchor_excerpts.count())
    content = alice.post(
        "/personas/import/", {"text": json.dumps(contract_data(seed_persona.persona_id, bias="Overwritten!"))}
    ).content.decode()

    assert f"personaId: &#x27;{seed_persona.persona_id}&#x27; belongs to a shared persona" in content
    seed_persona.refresh_from_db()
    assert (seed_persona.bias, seed_persona.anchor_excerpts.count()) == before

    # Ids are per owner: the same id as Mallory's private persona makes Alice's own (tests/security).
    before = (others_persona.owner_id, others_persona.bias, others_persona.anchor_excerpts.count())
    alice.post("/personas/import/", {"text": json.dumps(contract_data(others_persona.persona_id, bias="Mine!"))})
    others_persona.refresh_from_db()
    assert (others_persona.owner_id, others_persona.bias, others_persona.anchor_excerpts.count()) == before
    assert Persona.objects.get(persona_id=others_persona.persona_id, owner=user).bias == "Mine!"


def test_nothing_to_import_is_an_error(alice):
    content = alice.post("/personas/import/", {}).content.decode()

    assert "Choose a contract file or paste its JSON." in content


def test_a_file_that_is_not_json_is_refused(alice):
    upload = SimpleUploadedFile("personas.zip", b"PK\x03\x04")

    content = alice.post("/personas/import/", {"file": upload}).content.decode()

    assert "personas.zip: upload one persona contract, a .json file." in content
