import pytest

from personas.services import PersonaImportError, persona_import
from tests.personas.samples import database_is_empty

pytestmark = pytest.mark.django_db


def test_it_gives_the_file_line_and_column(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n  "personaId": "the-macro-bear",\n  "version": \n}\n')

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=path)

    assert caught.value.errors == [f"{path}: invalid JSON at line 4, column 1: Expecting value"]
    assert database_is_empty()


def test_it_rejects_a_key_given_twice(tmp_path):
    path = tmp_path / "twice.json"
    path.write_text('{"personaId": "a", "personaId": "b"}')

    with pytest.raises(PersonaImportError, match=r"twice\.json: invalid JSON: key 'personaId' appears twice"):
        persona_import(path=path)


def test_it_rejects_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"personality": "caf\u00e9"}'.encode("latin-1"))

    with pytest.raises(PersonaImportError, match=r"latin1\.json: not UTF-8 text"):
        persona_import(path=path)
