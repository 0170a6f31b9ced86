import pytest

from devtools.fake_messages_api import FakeMessagesAPI
from gateways.llm import gateway
from personas.models import Persona
from tests.support.persona_builder import BuilderScript

ESSAYS = {
    "inflation.md": (
        "# On inflation\n\n"
        "In 1971 a promise was broken, and every saver has paid for it since. The dollar stopped "
        "being a claim on anything but the next dollar.\n\n"
        "Inflation is a tax nobody voted for. It falls hardest on the people who hold cash, which is "
        "to say on the people with the least.\n"
    ),
    "trust.txt": (
        "Institutions earn trust the way a bank earns deposits: slowly, and they can lose it in an "
        "afternoon.\n\n"
        "I do not distrust central bankers as people. I distrust any ledger that only one party is "
        "allowed to write in.\n"
    ),
    "notes/gold.md": (
        "Gold pays no yield, and that is its point. It cannot default, because it is nobody's "
        "liability.\n\n"
        "Over a century, an ounce of gold bought a good suit in 1925 and still buys one today. Try "
        "that with a banknote.\n\n"
        "A saver who bought gold in 2001 and a saver who bought bonds did not live through the same "
        "decade. One of them was told it was the safe choice.\n"
    ),
    "letters/to-a-young-saver.txt": (
        "You will be told that holding cash is prudent. It is prudent only if someone else keeps "
        "their promises.\n\n"
        "Keep some of what you earn in a thing nobody can print. Keep the rest where you can see it. "
        "Never keep it all in the place the experts call safe.\n"
    ),
}


@pytest.fixture
def corpus_dir(tmp_path):
    root = tmp_path / "essays"
    for name, text in ESSAYS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def builder_script():
    return BuilderScript()


@pytest.fixture
def builder_api(settings, offline, builder_script):
    """The real anthropic SDK against a fake Messages API playing the persona builder."""
    with FakeMessagesAPI(responder=builder_script.respond) as api:
        settings.FAULTLINE_LLM = "anthropic"
        settings.ANTHROPIC_API_KEY = "test-key"
        settings.ANTHROPIC_BASE_URL = api.url
        settings.ANTHROPIC_MAX_RETRIES = 1
        gateway.reset_provider()
        yield api
    gateway.reset_provider()


@pytest.fixture
def persona(db):
    return Persona.objects.create(
        persona_id="ada-essayist",
        name="Ada Essayist",
        version="1",
        personality="p",
        bias="b",
        stakes="s",
        epistemology="e",
        time_horizon="t",
        flip_conditions="f",
    )
