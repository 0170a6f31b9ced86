"""Editing one's own persona in the browser, checked by the contract's own rules."""

import pytest

from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db


def _form(persona, **changes):
    data = {
        "name": persona.name,
        "tagline": persona.tagline,
        "personality": persona.personality,
        "bias": persona.bias,
        "stakes": persona.stakes,
        "epistemology": persona.epistemology,
        "time_horizon": persona.time_horizon,
        "flip_conditions": persona.flip_conditions,
        "evidence_policy": '{"acceptedSources": ["Minutes"], "rejectedSources": [], "weighting": "Minutes first."}',
        "speech_patterns": "You speak plainly.\nYou count on your fingers.",
        "vocabulary": "ledger\n\nsignal",
        "forbidden_phrases": "",
        "voice_examples": '[{"situation": "Asked for a forecast.", "response": "Show me the minutes."}]',
    }
    data.update(changes)
    return data


def test_it_saves_the_contract_and_the_voice(alice, own_persona):
    response = alice.post(f"/personas/{own_persona.pk}/edit/", _form(own_persona, bias="Trusts only minutes."))

    own_persona.refresh_from_db()
    assert response.status_code == 302 and response["Location"] == f"/personas/{own_persona.pk}/"
    assert own_persona.bias == "Trusts only minutes."
    assert own_persona.speech_patterns == ["You speak plainly.", "You count on your fingers."]
    assert own_persona.vocabulary == ["ledger", "signal"]
    assert own_persona.forbidden_phrases == []
    assert own_persona.evidence_policy == {
        "acceptedSources": ["Minutes"],
        "rejectedSources": [],
        "weighting": "Minutes first.",
    }
    assert own_persona.version != "2026-11-22T00:00:00Z"  # the version is the time of this build


def test_it_shows_the_form_prefilled(alice, own_persona):
    content = alice.get(f"/personas/{own_persona.pk}/edit/").content.decode()

    assert "You speak in declarative statements." in content
    assert "&quot;acceptedSources&quot;" in content


def test_it_rejects_what_the_contract_rejects(alice, own_persona):
    response = alice.post(
        f"/personas/{own_persona.pk}/edit/",
        _form(
            own_persona,
            personality="",
            evidence_policy='{"acceptedSources": [], "rejectedSources": []}',
            voice_examples='[{"situation": "Asked."}]',
        ),
    )

    content = response.content.decode()
    assert response.status_code == 200
    assert "weighting: Field required" in content
    assert "[0].response: Field required" in content
    assert "This field is required." in content
    own_persona.refresh_from_db()
    assert own_persona.personality == "A worldview in one line."


def test_a_seed_persona_cannot_be_edited_by_a_user(alice, seed_persona):
    assert alice.get(f"/personas/{seed_persona.pk}/edit/").status_code == 404
    assert alice.post(f"/personas/{seed_persona.pk}/edit/", _form(seed_persona)).status_code == 404


def test_delete_removes_an_own_persona(alice, user):
    persona = PersonaFactory(owner=user)

    response = alice.post(f"/personas/{persona.pk}/delete/")

    assert response.status_code == 302
    assert not type(persona).objects.filter(pk=persona.pk).exists()
