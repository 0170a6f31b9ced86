import pytest

from debates.services.lifecycle import debate_create
from tests.debates.log_builder import DebateLog
from tests.factories import DeckFactory, PersonaFactory


@pytest.fixture
def personas(db):
    return [
        PersonaFactory(persona_id="ada-hardmoney", name="Ada Hardmoney", tagline="Sound money or bust."),
        PersonaFactory(persona_id="bram-macro", name="Bram Macro", tagline="Liquidity is everything."),
        PersonaFactory(persona_id="cleo-central", name="Cleo Central", tagline="Trust the institutions."),
        PersonaFactory(persona_id="dev-degen", name="Dev Degen", tagline="Number go up."),
    ]


@pytest.fixture
def deck(personas):
    return DeckFactory(slug="money", name="Money", description="Who gets to print it?", personas=personas)


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def make_debate(user, personas, deck):
    def make(*, owner=None, topic="Is hard money the future?", hand=None):
        return debate_create(owner=owner or user, topic=topic, personas=hand or personas[:3], deck=deck)

    return make


@pytest.fixture
def debate(make_debate):
    return make_debate()


@pytest.fixture
def log(debate):
    return DebateLog(debate)
