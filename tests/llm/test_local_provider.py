"""The offline demo model, for real: SmolLM2-135M through llama.cpp."""

import pytest
from pydantic import BaseModel, Field

from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import Prompt, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def local_model(settings):
    settings.FAULTLINE_LLM = "local"
    gateway.reset_provider()
    yield
    gateway.reset_provider()


class Stance(BaseModel):
    position: str = Field(max_length=200)
    confidence: int = Field(ge=1, le=10)
    agrees: bool


def test_it_produces_text(local_model):
    prompt = Prompt(
        system_prefix="You are a blunt economist.",
        messages=[{"role": "user", "content": "In one sentence: is inflation good for savers?"}],
        max_tokens=40,
    )

    completion = gateway.generate(role=Role.PERSONA, prompt=prompt)

    assert completion.provider == "local"
    assert len(completion.text.split()) >= 3
    call = ModelCall.objects.get(id=completion.call_id)
    assert call.output_tokens > 0 and call.cost_usd == 0


def test_it_streams_text(local_model):
    prompt = Prompt(
        system_prefix="You are terse.", messages=[{"role": "user", "content": "Name a colour."}], max_tokens=12
    )
    pieces = []

    completion = gateway.stream(role=Role.PERSONA, prompt=prompt, on_text=pieces.append)

    assert pieces and "".join(pieces) == completion.text


def test_it_produces_schema_valid_json(local_model):
    prompt = Prompt(
        system_prefix="You extract stances as JSON.",
        messages=[{"role": "user", "content": "Speaker said: 'Gold always protects savers, I am sure.'"}],
        max_tokens=120,
        temperature=0.2,
    )

    stance = gateway.extract(role=Role.EXTRACTION, prompt=prompt, schema=Stance)

    assert isinstance(stance, Stance)
    assert 1 <= stance.confidence <= 10


def test_it_stops_generating_when_the_caller_has_enough(local_model):
    prompt = Prompt(
        system_prefix="You are a storyteller.",
        messages=[{"role": "user", "content": "Tell a long story."}],
        max_tokens=200,
    )
    pieces = []

    def take_two(piece):
        pieces.append(piece)
        return len(pieces) >= 2

    completion = gateway.stream(role=Role.PERSONA, prompt=prompt, on_text=take_two)

    assert len(pieces) == 2 and completion.text == "".join(pieces)
    assert completion.stop_reason == "stop_requested"
    assert 1 <= ModelCall.objects.get(id=completion.call_id).output_tokens < 20
