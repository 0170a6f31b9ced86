import pytest

from personas.services import PersonaImportError, persona_import
from tests.personas.samples import contract_data, database_is_empty, write_json

pytestmark = pytest.mark.django_db


def without_weighting():
    data = contract_data()
    del data["evidencePolicy"]["weighting"]
    return data


def with_numeric_version():
    return contract_data(version=3)


def with_string_for_a_list():
    data = contract_data()
    data["voice"]["forbiddenPhrases"] = "That's a great point"
    return data


def with_an_unknown_key():
    return contract_data(flipCondition="typo")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (without_weighting, "evidencePolicy.weighting: Field required"),
        (with_numeric_version, "version: Input should be a valid string"),
        (with_string_for_a_list, "voice.forbiddenPhrases: Input should be a valid list"),
        (with_an_unknown_key, "flipCondition: Extra inputs are not permitted"),
    ],
)
def test_it_names_the_file_and_field_and_writes_nothing(tmp_path, build, message):
    path = write_json(tmp_path / "contracts" / "bad.json", build())

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=path)

    assert caught.value.errors == [f"{path}: {message}"]
    assert database_is_empty()


def test_it_rejects_a_missing_required_field(tmp_path):
    data = contract_data()
    del data["stakes"]
    path = write_json(tmp_path / "bad.json", data)

    with pytest.raises(PersonaImportError, match=r"bad\.json: stakes: Field required"):
        persona_import(path=path)
    assert database_is_empty()


def test_it_rejects_the_same_persona_twice_in_one_folder(tmp_path):
    write_json(tmp_path / "a.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "b.json", contract_data("the-macro-bear"))

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path)

    assert caught.value.errors == [
        f"{tmp_path / 'b.json'}: personaId: 'the-macro-bear' is also defined in {tmp_path / 'a.json'}"
    ]
    assert database_is_empty()


def test_it_rejects_a_path_that_does_not_exist(tmp_path):
    with pytest.raises(PersonaImportError, match="no such file or folder"):
        persona_import(path=tmp_path / "missing")
