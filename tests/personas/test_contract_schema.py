import pytest
from pydantic import ValidationError

from personas.contracts import PersonaContract, contract_error_messages
from tests.personas.samples import contract_data


def errors_for(data) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        PersonaContract.model_validate(data)
    return contract_error_messages(caught.value)


def test_it_accepts_the_seed_format():
    contract = PersonaContract.model_validate(contract_data())

    assert contract.persona_id == "the-macro-bear"
    assert contract.evidence_policy.weighting == "Market prices over forecasts."
    assert [excerpt.id for excerpt in contract.anchor_excerpts] == ["bear-01", "bear-02"]
    assert contract.voice.forbidden_phrases[0] == "That's a great point"


def test_it_derives_the_name_from_the_persona_id():
    assert PersonaContract.model_validate(contract_data()).name == "The Macro Bear"
    assert PersonaContract.model_validate(contract_data(name="Bear")).name == "Bear"


def test_it_makes_the_voice_optional():
    data = contract_data()
    del data["voice"]

    assert PersonaContract.model_validate(data).voice.speech_patterns == []


def test_it_names_nested_fields_in_errors():
    data = contract_data()
    del data["evidencePolicy"]["weighting"]
    data["anchorExcerpts"][1]["content"] = 7
    data["voice"]["vocabulary"] = ["fine", ""]

    assert errors_for(data) == [
        "evidencePolicy.weighting: Field required",
        "anchorExcerpts[1].content: Input should be a valid string",
        "voice.vocabulary[1]: Must not be empty",
    ]


def test_it_forbids_unknown_and_snake_case_keys():
    assert errors_for(contract_data(flipCondition="typo", time_horizon="x")) == [
        "flipCondition: Extra inputs are not permitted",
        "time_horizon: Extra inputs are not permitted",
    ]


def test_it_rejects_blank_text_and_a_bad_slug():
    assert errors_for(contract_data(personaId="not a slug", bias="   ")) == [
        "personaId: Must be a slug: letters, digits, hyphens and underscores only",
        "bias: Must not be empty",
    ]


def test_it_rejects_duplicate_excerpt_ids():
    data = contract_data()
    data["anchorExcerpts"][1]["id"] = "bear-01"

    assert errors_for(data) == ["anchorExcerpts: Duplicate excerpt id 'bear-01'"]


def test_it_rejects_a_document_that_is_not_an_object():
    assert errors_for([contract_data()]) == ["(top level): Input should be a JSON object"]
