import io
import json
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from personas.models import Deck, Persona
from tests.personas.samples import contract_data, database_is_empty, deck_data

pytestmark = pytest.mark.django_db

URL = "/admin/personas/persona/import/"


def upload(client, name: str, content: bytes, **kwargs):
    return client.post(URL, {"file": SimpleUploadedFile(name, content)}, **kwargs)


def zipped(files: dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data if isinstance(data, str) else json.dumps(data))
    return buffer.getvalue()


def messages_of(response) -> list[str]:
    return [message.message for message in response.context["messages"]]


def test_the_page_shows_an_upload_form(admin_client):
    response = admin_client.get(URL)

    assert response.status_code == 200
    assert b'type="file"' in response.content


def test_it_imports_one_json_file(admin_client):
    response = upload(admin_client, "bear.json", json.dumps(contract_data()).encode(), follow=True)

    assert response.redirect_chain[-1][0] == "/admin/personas/persona/"
    assert messages_of(response) == ["Created personas (1): the-macro-bear"]
    assert Persona.objects.get().name == "The Macro Bear"


def test_it_imports_a_zip_of_contracts_and_decks(admin_client):
    archive = zipped(
        {
            "contracts/bear.json": contract_data("the-macro-bear"),
            "contracts/bull.json": contract_data("the-perma-bull"),
            "contracts/decks.json": [deck_data("markets", ["the-macro-bear", "the-perma-bull"])],
            "__MACOSX/contracts/._bear.json": "junk",
        }
    )

    response = upload(admin_client, "contracts.zip", archive, follow=True)

    assert messages_of(response) == [
        "Created personas (2): the-macro-bear, the-perma-bull",
        "Created decks (1): markets",
    ]
    assert Deck.objects.get().personas.count() == 2


def test_it_rejects_a_bad_file_naming_file_and_field(admin_client):
    data = contract_data()
    del data["evidencePolicy"]["weighting"]

    response = upload(admin_client, "bear.json", json.dumps(data).encode())

    assert response.status_code == 200
    assert messages_of(response) == [
        "Nothing was imported from bear.json. Fix these problems and upload again:"
        "<ul><li>bear.json: evidencePolicy.weighting: Field required</li></ul>"
    ]
    assert database_is_empty()


def test_it_imports_nothing_from_a_zip_with_one_bad_file(admin_client):
    archive = zipped(
        {
            "bear.json": contract_data("the-macro-bear"),
            "broken.json": '{"personaId": ',
        }
    )

    response = upload(admin_client, "bundle.zip", archive)

    [message] = messages_of(response)
    assert "<li>bundle.zip/broken.json: invalid JSON at line 1, column 15: Expecting value</li>" in message
    assert database_is_empty()


def test_it_rejects_a_file_that_is_neither_json_nor_zip(admin_client):
    response = upload(admin_client, "notes.txt", b"hello")

    [message] = messages_of(response)
    assert "<li>notes.txt: upload a .json contract or a .zip of them</li>" in message
    assert database_is_empty()


def test_it_escapes_and_caps_the_list_of_problems(admin_client):
    files = {f"<i>{n:02d}</i>.json": contract_data(f"persona-{n}", bias="") for n in range(30)}

    response = upload(admin_client, "many.zip", zipped(files))

    [message] = messages_of(response)
    assert "<li>many.zip/&lt;i&gt;00&lt;/i&gt;.json: bias: Must not be empty</li>" in message
    assert "<i>" not in message
    assert message.count("<li>") == 26
    assert message.endswith("<li>... and 5 more</li></ul>")
    assert database_is_empty()


def test_it_is_for_staff_only(client):
    response = upload(client, "bear.json", json.dumps(contract_data()).encode())

    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert database_is_empty()
