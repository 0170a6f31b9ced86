import pytest

from personas.models import AnchorExcerpt, Deck, Persona
from personas.services import persona_import
from tests.personas.samples import contract_data, deck_data, write_json

pytestmark = pytest.mark.django_db


def test_it_updates_a_persona_and_replaces_its_excerpts(tmp_path):
    path = write_json(tmp_path / "bear.json", contract_data())
    persona_import(path=path)
    first_pk = Persona.objects.get().pk

    changed = contract_data(version="2026-12-01T00:00:00Z", bias="Now sees bubbles everywhere.")
    changed["anchorExcerpts"] = [{"id": "bear-09", "content": "New excerpt."}]
    result = persona_import(path=write_json(path, changed))

    assert result.updated == ["the-macro-bear"] and result.created == []
    persona = Persona.objects.get()
    assert persona.pk == first_pk
    assert persona.version == "2026-12-01T00:00:00Z"
    assert persona.bias == "Now sees bubbles everywhere."
    assert list(AnchorExcerpt.objects.values_list("excerpt_id", flat=True)) == ["bear-09"]


def test_it_reports_an_identical_reimport_as_unchanged(tmp_path):
    write_json(tmp_path / "bear.json", contract_data())
    write_json(tmp_path / "decks.json", [deck_data("markets")])
    persona_import(path=tmp_path)
    updated_at = Persona.objects.get().updated_at

    result = persona_import(path=tmp_path)

    assert result.unchanged == ["the-macro-bear"] and result.updated == []
    assert result.decks_unchanged == ["markets"]
    assert Persona.objects.get().updated_at == updated_at
    assert AnchorExcerpt.objects.count() == 2 and Deck.objects.count() == 1


def test_it_sets_a_decks_members_to_the_ones_listed(tmp_path):
    write_json(tmp_path / "bear.json", contract_data("the-macro-bear"))
    write_json(tmp_path / "bull.json", contract_data("the-perma-bull"))
    write_json(tmp_path / "decks.json", [deck_data("markets", ["the-macro-bear", "the-perma-bull"])])
    persona_import(path=tmp_path)

    write_json(tmp_path / "decks.json", [deck_data("markets", ["the-perma-bull"], name="Bulls only")])
    result = persona_import(path=tmp_path)

    deck = Deck.objects.get()
    assert result.decks_updated == ["markets"]
    assert deck.name == "Bulls only"
    assert list(deck.personas.values_list("persona_id", flat=True)) == ["the-perma-bull"]
