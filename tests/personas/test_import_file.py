import pytest

from personas.models import Persona
from personas.services import persona_import
from tests.personas.samples import contract_data, write_json

pytestmark = pytest.mark.django_db


def test_it_imports_one_contract_file(tmp_path):
    path = write_json(tmp_path / "the-macro-bear.json", contract_data(tagline="Cash is a position."))

    result = persona_import(path=path)

    assert result.created == ["the-macro-bear"]
    persona = Persona.objects.get(persona_id="the-macro-bear")
    assert persona.name == "The Macro Bear"
    assert persona.tagline == "Cash is a position."
    assert persona.time_horizon == "Eighteen months."
    assert persona.flip_conditions == "Spreads tightening for two quarters while earnings rise."
    assert persona.evidence_policy == {
        "acceptedSources": ["Credit spreads", "Central-bank balance sheets"],
        "rejectedSources": ["Sell-side price targets"],
        "weighting": "Market prices over forecasts.",
    }
    assert persona.speech_patterns == ["You open with a warning, then a number."]
    assert persona.forbidden_phrases == ["That's a great point", "I understand your perspective"]
    assert persona.voice_examples == [
        {"situation": "Someone calls a bottom.", "response": "Call me when spreads agree."}
    ]


def test_it_keeps_the_excerpts_in_file_order(tmp_path):
    persona_import(path=write_json(tmp_path / "bear.json", contract_data()))

    excerpts = Persona.objects.get().anchor_excerpts.order_by("position")
    assert [(e.excerpt_id, e.source, e.date) for e in excerpts] == [
        ("bear-01", "Faultline archetype sample", ""),
        ("bear-02", "", "2026-01-02"),
    ]
