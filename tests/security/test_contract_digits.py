"""Numbers longer than Python converts (4,300 digits) get one clear message wherever they are
parsed: a persona contract imported on the web, by `importpersonas` or in the admin's upload, a
persona's JSON fields edited on its page, and an i23 framework given to `python -m argumentation`.
Nothing is written and nothing crashes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from personas.models import Persona
from personas.services import PersonaImportError, persona_import_upload
from tests.factories import PersonaFactory
from tests.personas.samples import contract_data

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LONG = "7" * 5000
TOO_LONG = "a number longer than 4300 digits"


def contract_with_a_long_number() -> str:
    # json.dumps would refuse the int itself; the number goes in as text, as a hostile file has it.
    return json.dumps(contract_data("long-numbers", version="PLACEHOLDER")).replace('"PLACEHOLDER"', LONG)


@pytest.fixture
def alice(client, user):
    client.force_login(user)
    return client


def test_the_web_import_answers_with_one_line(alice):
    for data in (
        {"text": contract_with_a_long_number()},
        {"file": SimpleUploadedFile("long.json", contract_with_a_long_number().encode())},
    ):
        response = alice.post("/personas/import/", data)

        assert response.status_code == 200
        assert TOO_LONG in response.content.decode()
    assert not Persona.objects.exists()


def test_importpersonas_answers_with_one_line(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(contract_with_a_long_number())

    with pytest.raises(CommandError) as caught:
        call_command("importpersonas", str(path))

    assert str(caught.value) == f"nothing was imported:\n{path}: invalid JSON: {TOO_LONG}"
    assert not Persona.objects.exists()


def test_an_admin_upload_and_a_decks_file_answer_with_one_line():
    for name, content in (
        ("long.json", contract_with_a_long_number()),
        ("decks.json", f'[{{"slug": "markets", "name": "Markets", "personaIds": [], "description": {LONG}}}]'),
    ):
        with pytest.raises(PersonaImportError) as caught:
            persona_import_upload(filename=name, content=content.encode())

        assert caught.value.errors == [f"{name}: invalid JSON: {TOO_LONG}"]


def test_a_persona_edit_with_a_long_number_is_refused_on_the_form(alice, user):
    persona = PersonaFactory(persona_id="alices-own", owner=user)

    response = alice.post(
        f"/personas/{persona.pk}/edit/",
        {
            "name": "Alice's Own",
            "tagline": "",
            "personality": "p",
            "bias": "b",
            "stakes": "s",
            "epistemology": "e",
            "time_horizon": "t",
            "flip_conditions": "f",
            "evidence_policy": '{"acceptedSources": [], "rejectedSources": [], "weighting": ' + LONG + "}",
            "speech_patterns": "",
            "vocabulary": "",
            "forbidden_phrases": "",
            "voice_examples": "[]",
        },
    )

    assert response.status_code == 200
    assert "a number in it is longer than 40 characters" in response.content.decode()


def solve(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "argumentation", "-p", "EE-PR", "-f", str(path), "-fo", "i23"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("text", "status", "message"),
    [
        (f"p af {LONG}\n", 2, ":1: a 5000-digit number of arguments; this solver takes at most 1000000"),
        (f"p af 3\n1 {LONG}\n", 1, ":2: argument '777777777777…' (5000 digits) is outside 1..3"),
        (f"p af 3\n{LONG} 2\n", 1, ":2: argument '777777777777…' (5000 digits) is outside 1..3"),
    ],
)
def test_an_i23_file_with_a_long_number_gets_one_line(tmp_path, text, status, message):
    path = tmp_path / "long.i23"
    path.write_text(text)

    result = solve(path)

    assert (result.returncode, result.stdout) == (status, "")
    assert result.stderr == f"error: {path}{message}\n"
