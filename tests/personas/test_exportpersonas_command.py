import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import AnchorExcerptFactory, DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db


def test_it_writes_one_file_per_persona_and_the_decks(tmp_path):
    bear = PersonaFactory(persona_id="the-macro-bear")
    bull = PersonaFactory(persona_id="the-perma-bull")
    AnchorExcerptFactory(persona=bear, excerpt_id="bear-01", content="Liquidity is a coward.")
    DeckFactory(slug="markets", personas=[bear, bull])
    out = StringIO()

    call_command("exportpersonas", str(tmp_path / "out"), stdout=out)

    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == [
        "decks.json",
        "the-macro-bear.json",
        "the-perma-bull.json",
    ]
    contract = json.loads((tmp_path / "out" / "the-macro-bear.json").read_text())
    assert contract["personaId"] == "the-macro-bear"
    assert contract["anchorExcerpts"] == [
        {"id": "bear-01", "content": "Liquidity is a coward.", "source": "Faultline archetype sample"}
    ]
    decks = json.loads((tmp_path / "out" / "decks.json").read_text())
    assert decks[0]["personaIds"] == ["the-macro-bear", "the-perma-bull"]
    assert "Wrote 3 files" in out.getvalue()


def test_it_exports_only_the_named_personas(tmp_path):
    PersonaFactory(persona_id="the-macro-bear")
    PersonaFactory(persona_id="the-perma-bull")

    call_command("exportpersonas", str(tmp_path), "--persona", "the-perma-bull", stdout=StringIO())

    assert [path.name for path in tmp_path.iterdir()] == ["the-perma-bull.json"]


def test_it_refuses_an_unknown_persona(tmp_path):
    PersonaFactory(persona_id="the-macro-bear")

    with pytest.raises(CommandError, match="no such persona: the-ghost"):
        call_command("exportpersonas", str(tmp_path), "--persona", "the-ghost", "--persona", "the-macro-bear")
