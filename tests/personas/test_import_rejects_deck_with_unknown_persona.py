import pytest

from personas.services import PersonaImportError, persona_import
from tests.personas.samples import contract_data, database_is_empty, deck_data, write_json

pytestmark = pytest.mark.django_db


def test_it_names_the_file_the_deck_and_the_missing_persona(tmp_path):
    write_json(tmp_path / "bear.json", contract_data("the-macro-bear"))
    decks = write_json(tmp_path / "decks.json", [deck_data("markets", ["the-macro-bear", "the-ghost"])])

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path)

    assert caught.value.errors == [
        f"{decks}: deck 'markets': personaIds: unknown persona 'the-ghost' (not in this import nor in the database)"
    ]
    assert database_is_empty()


def test_it_validates_the_deck_file_shape(tmp_path):
    write_json(tmp_path / "bear.json", contract_data("the-macro-bear"))
    decks = write_json(tmp_path / "decks.json", [{"slug": "markets", "personaIds": ["the-macro-bear"]}])

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path)

    assert caught.value.errors == [f"{decks}: [0].name: Field required"]
    assert database_is_empty()
