import pytest

from personas.models import Deck, Persona
from personas.services import persona_import
from tests.personas.samples import contract_data, deck_data, write_json

pytestmark = pytest.mark.django_db


def test_it_imports_every_contract_and_the_decks(tmp_path):
    write_json(tmp_path / "bear.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "bull.json", contract_data("the-perma-bull", name="The Perma-Bull"))
    write_json(tmp_path / "decks.json", [deck_data("markets", ["the-macro-bear", "the-perma-bull"])])
    (tmp_path / "README.txt").write_text("not a contract")

    result = persona_import(path=tmp_path)

    assert sorted(result.created) == ["the-macro-bear", "the-perma-bull"]
    assert result.decks_created == ["markets"]
    deck = Deck.objects.get(slug="markets")
    assert deck.topic_area == "Markets"
    assert sorted(deck.personas.values_list("persona_id", flat=True)) == ["the-macro-bear", "the-perma-bull"]
    assert Persona.objects.count() == 2


def test_it_lets_a_deck_name_personas_already_in_the_database(tmp_path):
    persona_import(path=write_json(tmp_path / "one" / "bear.json", contract_data("the-macro-bear")))

    persona_import(path=write_json(tmp_path / "two" / "decks.json", [deck_data("markets", ["the-macro-bear"])]))

    assert list(Deck.objects.get().personas.values_list("persona_id", flat=True)) == ["the-macro-bear"]
