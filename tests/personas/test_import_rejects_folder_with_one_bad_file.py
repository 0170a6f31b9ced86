import pytest

from personas.models import AnchorExcerpt, Deck, Persona
from personas.services import PersonaImportError, persona_import
from tests.personas.samples import contract_data, deck_data, write_json

pytestmark = pytest.mark.django_db


def test_it_writes_none_of_the_good_files(tmp_path):
    write_json(tmp_path / "a-good.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "c-good.json", contract_data("the-perma-bull"))
    write_json(tmp_path / "decks.json", [deck_data("markets", ["the-macro-bear", "the-perma-bull"])])
    bad = contract_data("the-gold-bug")
    del bad["flipConditions"]
    write_json(tmp_path / "b-bad.json", bad)

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path)

    assert caught.value.errors == [f"{tmp_path / 'b-bad.json'}: flipConditions: Field required"]
    assert not Persona.objects.exists() and not AnchorExcerpt.objects.exists() and not Deck.objects.exists()


def test_it_leaves_existing_personas_as_they_were(tmp_path):
    persona_import(path=write_json(tmp_path / "first" / "bear.json", contract_data("the-macro-bear")))

    write_json(tmp_path / "second" / "bear.json", contract_data("the-macro-bear", bias="Changed."))
    write_json(tmp_path / "second" / "bad.json", contract_data("the-perma-bull", evidencePolicy={}))
    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path / "second")

    assert caught.value.errors == [
        f"{tmp_path / 'second' / 'bad.json'}: evidencePolicy.acceptedSources: Field required",
        f"{tmp_path / 'second' / 'bad.json'}: evidencePolicy.rejectedSources: Field required",
        f"{tmp_path / 'second' / 'bad.json'}: evidencePolicy.weighting: Field required",
    ]
    assert Persona.objects.get().bias == "Sees a bubble in everything."
    assert Persona.objects.count() == 1


def test_it_reports_every_bad_file_at_once(tmp_path):
    write_json(tmp_path / "one.json", contract_data("one", personality=""))
    (tmp_path / "two.json").write_text("{")

    with pytest.raises(PersonaImportError) as caught:
        persona_import(path=tmp_path)

    assert caught.value.errors == [
        f"{tmp_path / 'one.json'}: personality: Must not be empty",
        f"{tmp_path / 'two.json'}: invalid JSON at line 1, column 2: Expecting property name enclosed in double quotes",
    ]
