import pytest
from django.contrib.auth import get_user_model

from devtools.fake_voyage_api import FakeVoyageAPI
from devtools.scripted_debate import DebateScript
from gateways.embeddings import gateway as embeddings
from projects.models import Project
from tests.orchestrator.conftest import make_persona
from tests.support.fake_anthropic import fake_messages_apis

AGREED_POINT = "Gold pays no yield, so holding it costs central banks more when real interest rates are high."
DECISION = "Central banks should keep gold below a fifth of their reserves."
CONCESSION = "{speaker} grants that gold did poorly from 1980 to 2000"


class MemoryScript(DebateScript):
    """The scripted debate, where the closing statements settle something: the first closing
    proposes DECISION and the second accepts it in so many words (a decision everyone accepted,
    debates/blackboard/conversation.py); the ledger records an agreement between the two and a
    concession by each speaker, and rates the closings 8 of 10 (what memory must keep)."""

    def _persona_turn_text(self, reading) -> str:
        text = super()._persona_turn_text(reading)
        if reading.call.phase != "closing":
            return text
        with self._lock:
            first, self._closings = not getattr(self, "_closings", 0), getattr(self, "_closings", 0) + 1
        if first:
            return f"{text} I propose that {DECISION[0].lower()}{DECISION[1:]}"
        return f"{text} I accept the proposal: {DECISION}"

    def position_update(self, reading, said, before) -> dict:
        update = super().position_update(reading, said, before)
        if said.text.startswith("Closing for"):
            other = next(name for name in reading.participants if name != said.name)
            update["new_agreement"] = {"with": other, "on": AGREED_POINT}
            update["concession"] = CONCESSION.format(speaker=said.name)
            update["importance"] = 8
        return update


@pytest.fixture
def personas(db):
    return [make_persona(name) for name in ("Ada Hardmoney", "Bram Macro")]


@pytest.fixture
def memory_api(settings):
    """The real anthropic SDK against a fake Messages API playing MemoryScript; offline embeddings."""
    script = MemoryScript(dispute="none")
    with fake_messages_apis(settings, retries=2, offline_embeddings=True) as serve:
        yield serve(script.respond)


@pytest.fixture
def fake_voyage(settings):
    """The real voyageai client pointed at a local fake embeddings endpoint."""
    with FakeVoyageAPI() as api:
        settings.FAULTLINE_EMBEDDINGS = "voyage"
        settings.VOYAGE_API_KEY = "test-voyage-key"
        settings.VOYAGE_BASE_URL = api.url
        settings.VOYAGE_MAX_RETRIES = 2
        embeddings.reset_provider()
        yield api
    embeddings.reset_provider()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice")


@pytest.fixture
def bob(db):
    return get_user_model().objects.create_user("bob")


@pytest.fixture
def project(alice):
    return Project.objects.create(owner=alice, name="Thesis")
