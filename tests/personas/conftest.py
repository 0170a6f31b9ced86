import pytest

from tests.factories import AnchorExcerptFactory, DeckFactory, PersonaFactory


@pytest.fixture
def alice(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def seed_persona(db):
    persona = PersonaFactory(persona_id="the-macro-bear", name="The Macro Bear", tagline="Liquidity is a coward.")
    AnchorExcerptFactory(persona=persona, excerpt_id="bear-01", content="Every cycle ends in credit.")
    return persona


@pytest.fixture
def seed_deck(seed_persona):
    return DeckFactory(slug="markets", name="Markets", personas=[seed_persona])


@pytest.fixture
def own_persona(user):
    return PersonaFactory(persona_id="alices-own", name="Alice's Own", owner=user, tagline="Mine alone.")


@pytest.fixture
def others_persona(other_user):
    return PersonaFactory(persona_id="mallorys-secret", name="Mallory's Secret", owner=other_user)


@pytest.fixture
def others_deck(other_user, others_persona):
    return DeckFactory(slug="mallorys-deck", name="Mallory's Deck", owner=other_user, personas=[others_persona])
