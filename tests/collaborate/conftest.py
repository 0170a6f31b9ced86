"""A Collaborate run through the real anthropic SDK and the fake Messages API: the Architect and
the Reviewer answer slowly enough (streamed in timed chunks) that running side by side shows in
the call ledger; what each call writes is keyed on the role its system prompt gives it."""

from __future__ import annotations

import threading

import pytest

from debates.models import Debate
from debates.services.lifecycle import debate_create
from gateways.llm.fake_messages_api import Reply
from personas.models import Persona
from personas.services import role_personas
from tests.debates.conftest import deck, owner_client, personas  # noqa: F401 (the page tests' fixtures)
from tests.support.fake_anthropic import fake_messages_apis

ARCHITECT_MODEL = "claude-architect-test"
REVIEWER_MODEL = "claude-reviewer-test"
SYNTHESIS_MODEL = "claude-synthesis-test"
BRIEF = "Design a URL shortener for ten million links a day"
ARTIFACT = "# URL shortener design\n\n## Storage\n\n- Postgres, base62 keys\n\n## Open questions\n\n- Custom aliases?"


class CollaborationScript:
    """Answers each role's calls; ``artifact`` is what the synthesis says (a Reply or a string),
    ``fail`` names roles ("architect", "reviewer", "synthesis") whose calls get an HTTP 400,
    ``overloaded_once`` roles whose first call gets an HTTP 529, ``silent`` roles whose calls answer
    with no text at all."""

    def __init__(
        self,
        *,
        artifact=ARTIFACT,
        fail=(),
        overloaded_once=(),
        silent=(),
        hostile: str = "",
        chunk_delay: float = 0.02,
    ) -> None:
        self.artifact = artifact
        self.fail = set(fail)
        self.silent = set(silent)
        self.overloaded_once = set(overloaded_once)
        self.hostile = hostile
        self.chunk_delay = chunk_delay
        self.requests: list[dict] = []
        self._lock = threading.Lock()

    @staticmethod
    def role_of(body: dict) -> str:
        system = body.get("system") or ""
        system = system if isinstance(system, str) else "\n".join(block["text"] for block in system)
        if "You are the Architect" in system:
            return "architect"
        if "You are the Reviewer" in system:
            return "reviewer"
        if "You write the artifact" in system:
            return "synthesis"
        return "other"

    def respond(self, body: dict) -> Reply:
        with self._lock:
            self.requests.append(body)
        if (body.get("output_config") or {}).get("format"):
            return Reply.json({})  # side work (memory, ...) this test does not script: skipped
        role = self.role_of(body)
        with self._lock:
            if role in self.overloaded_once:
                self.overloaded_once.discard(role)
                return Reply.overloaded()
        if role in self.fail:
            return Reply(status=400, error_type="invalid_request_error")
        if role in self.silent:
            return Reply.says("")
        said = "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")
        revising = "first answer:" in said
        if role == "synthesis":
            return self.artifact if isinstance(self.artifact, Reply) else Reply.says(self.artifact)
        name = role.capitalize()
        stage = "Revised" if revising else "First"
        text = (
            f"## {name}: {stage} answer\n\n1. {name} point one about the shortener.{self.hostile}\n"
            f"2. {name} point two, with enough words to stream in several chunks.\n"
        )
        return Reply.says(text, chunk_size=10, chunk_delay=self.chunk_delay)

    def bodies(self, role: str) -> list[dict]:
        return [b for b in self.requests if self.role_of(b) == role and not (b.get("output_config") or {})]


def user_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")


def first_answer(role: str) -> str:
    name = role.capitalize()
    return f"## {name}: First answer"


@pytest.fixture
def collab_api(settings):
    models = {"architect": ARCHITECT_MODEL, "reviewer": REVIEWER_MODEL, "synthesis": SYNTHESIS_MODEL}
    with fake_messages_apis(settings, retries=0, models=models) as serve:

        def start(**kwargs) -> CollaborationScript:
            script = CollaborationScript(**kwargs)
            serve(script.respond)
            return script

        yield start


@pytest.fixture
def new_collaboration(db):
    def create(topic=BRIEF, owner=None):
        roles = [Persona.objects.get(persona_id=pid) for pid in role_personas("collaborate")]
        return debate_create(owner=owner, topic=topic, personas=roles, mode=Debate.Mode.COLLABORATE)

    return create
