import pytest

from debates.services.lifecycle import debate_create
from gateways.llm.fake_messages_api import FakeMessagesAPI
from personas.models import Persona
from tests.support.fake_anthropic import fake_messages_apis
from tests.support.scripted_debate import FORBIDDEN_SAMPLE, DebateScript


def make_persona(name: str, **extra) -> Persona:
    slug = name.lower().replace(" ", "-")
    defaults = dict(
        persona_id=slug,
        name=name,
        version="2026-11-01T00:00:00Z",
        personality=f"{name} has a worldview.",
        bias="Sees what confirms it.",
        stakes="Reputation.",
        epistemology="Trusts data.",
        time_horizon="Decades.",
        flip_conditions="A decade of contrary data.",
        evidence_policy={"acceptedSources": ["data"], "rejectedSources": ["hype"], "weighting": "Data first."},
        speech_patterns=["Declarative sentences."],
        forbidden_phrases=[FORBIDDEN_SAMPLE, "I understand your perspective"],
    )
    defaults.update(extra)
    return Persona.objects.create(**defaults)


@pytest.fixture
def personas(db):
    return [make_persona(name) for name in ("Ada Hardmoney", "Bram Macro", "Cleo Central")]


@pytest.fixture
def scripted_api(settings):
    """Start a fake Messages API driven by a DebateScript; yields a function to (re)configure it."""
    with fake_messages_apis(settings, retries=2) as serve:

        def start(**script_options) -> tuple[FakeMessagesAPI, DebateScript]:
            script = DebateScript(**script_options)
            return serve(script.respond), script

        yield start


@pytest.fixture
def new_debate(personas):
    def create(max_turns=12, hand=None, topic="Is hard money the future?"):
        return debate_create(owner=None, topic=topic, personas=hand or personas, max_turns=max_turns)

    return create
