import json

import pytest

from personas.models import Persona

pytestmark = pytest.mark.django_db

ADD = "/admin/personas/persona/add/"


def form_data(**overrides):
    data = {
        "persona_id": "the-macro-bear",
        "name": "The Macro Bear",
        "tagline": "",
        "version": "2026-11-22T00:00:00Z",
        "personality": "A bear.",
        "bias": "Bubbles everywhere.",
        "stakes": "A short book.",
        "epistemology": "Credit spreads.",
        "time_horizon": "Eighteen months.",
        "flip_conditions": "Tight spreads for two quarters.",
        "evidence_policy": json.dumps({"acceptedSources": ["Spreads"], "rejectedSources": [], "weighting": "Prices."}),
        "speech_patterns": json.dumps(["You open with a warning."]),
        "vocabulary": "[]",
        "forbidden_phrases": json.dumps(["That's a great point"]),
        "voice_examples": json.dumps([{"situation": "A bull speaks.", "response": "Show me the spreads."}]),
        "anchor_excerpts-TOTAL_FORMS": "1",
        "anchor_excerpts-INITIAL_FORMS": "0",
        "anchor_excerpts-MIN_NUM_FORMS": "0",
        "anchor_excerpts-MAX_NUM_FORMS": "1000",
        "anchor_excerpts-0-position": "0",
        "anchor_excerpts-0-excerpt_id": "bear-01",
        "anchor_excerpts-0-content": "Liquidity is a coward.",
        "anchor_excerpts-0-source": "",
        "anchor_excerpts-0-date": "",
    }
    data.update(overrides)
    return data


def test_it_saves_a_valid_persona_with_its_excerpt(admin_client):
    response = admin_client.post(ADD, form_data())

    assert response.status_code == 302, response.context["adminform"].form.errors
    persona = Persona.objects.get()
    assert persona.evidence_policy == {"acceptedSources": ["Spreads"], "rejectedSources": [], "weighting": "Prices."}
    assert list(persona.anchor_excerpts.values_list("excerpt_id", flat=True)) == ["bear-01"]


@pytest.mark.parametrize(
    ("field", "value", "error"),
    [
        ("evidence_policy", {"acceptedSources": ["Spreads"], "rejectedSources": []}, "weighting: Field required"),
        (
            "evidence_policy",
            {"acceptedSources": "Spreads", "rejectedSources": [], "weighting": "x"},
            "acceptedSources: Input should be a valid list",
        ),
        ("speech_patterns", ["fine", 3], "[1]: Input should be a valid string"),
        ("forbidden_phrases", {"not": "a list"}, "(top level): Input should be a valid list"),
        ("voice_examples", [{"situation": "x"}], "[0].response: Field required"),
    ],
)
def test_it_rejects_json_fields_with_the_wrong_shape(admin_client, field, value, error):
    response = admin_client.post(ADD, form_data(**{field: json.dumps(value)}))

    assert response.status_code == 200
    assert response.context["adminform"].form.errors[field] == [error]
    assert not Persona.objects.exists()


def test_it_rejects_duplicate_excerpt_ids(admin_client):
    response = admin_client.post(
        ADD,
        form_data(
            **{
                "anchor_excerpts-TOTAL_FORMS": "2",
                "anchor_excerpts-1-position": "1",
                "anchor_excerpts-1-excerpt_id": "bear-01",
                "anchor_excerpts-1-content": "Again.",
                "anchor_excerpts-1-source": "",
                "anchor_excerpts-1-date": "",
            }
        ),
    )

    assert response.status_code == 200
    assert response.context["inline_admin_formsets"][0].formset.non_form_errors() == [
        "Please correct the duplicate data for excerpt_id."
    ]
    assert not Persona.objects.exists()
