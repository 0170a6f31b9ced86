"""The shipped seed: enough distinct archetypes, each with a usable voice."""

import json
from datetime import datetime

import pytest

from personas.contracts import DECK_LIST, DECKS_FILE, PersonaContract
from personas.services import SEED_DIR

CONTRACTS = [
    PersonaContract.model_validate(json.loads(path.read_text()))
    for path in sorted(SEED_DIR.glob("*.json"))
    if path.name != DECKS_FILE
]
DECKS = DECK_LIST.validate_python(json.loads((SEED_DIR / DECKS_FILE).read_text()))


def test_it_ships_at_least_eight_personas_in_at_least_two_decks():
    assert len(CONTRACTS) >= 8
    assert len(DECKS) >= 2
    in_a_deck = {persona_id for deck in DECKS for persona_id in deck.persona_ids}
    assert in_a_deck == {contract.persona_id for contract in CONTRACTS}


def test_each_file_is_named_for_its_persona():
    names = {path.stem for path in SEED_DIR.glob("*.json")} - {"decks"}
    assert names == {contract.persona_id for contract in CONTRACTS}


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda contract: contract.persona_id)
def test_each_persona_has_a_full_voice(contract):
    assert datetime.fromisoformat(contract.version)
    assert 3 <= len(contract.anchor_excerpts) <= 5
    assert 2 <= len(contract.voice.voice_examples) <= 3
    assert len(contract.voice.speech_patterns) >= 4
    assert len(contract.voice.vocabulary) >= 8
    assert {"That's a great point", "I understand your perspective"} <= set(contract.voice.forbidden_phrases)
    assert len(contract.evidence_policy.accepted_sources) >= 3
    assert len(contract.evidence_policy.rejected_sources) >= 3


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda contract: contract.persona_id)
def test_each_persona_is_an_archetype_with_original_excerpts(contract):
    assert contract.name.startswith("The ")
    assert all(excerpt.source == "Faultline archetype sample" for excerpt in contract.anchor_excerpts)


def test_the_voices_are_distinct():
    openings = [contract.voice.speech_patterns[0] for contract in CONTRACTS]
    taglines = [contract.tagline for contract in CONTRACTS]
    assert len(set(openings)) == len(openings)
    assert len(set(taglines)) == len(taglines)
