"""A Collaborate run through the real anthropic SDK and the fake Messages API: the Architect and
the Reviewer answer slowly enough (streamed in timed chunks) that running side by side shows in
the call ledger; what each call writes is keyed on the call's role and phase (its X-Faultline-Call header), never on the prompt's wording."""

from __future__ import annotations

import threading

import pytest

from debates.modes import mode_spec
from debates.services.lifecycle import debate_create
from devtools.fake_messages_api import Call, Reply
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
        self.calls: list[Call] = []  # what each request was, beside it
        self._lock = threading.Lock()

    @staticmethod
    def role_of(call: Call) -> str:
        if call.phase == "collaborate_artifact":
            return "synthesis"
        return call.role if call.role in ("architect", "reviewer") else "other"

    def respond(self, body: dict, call: Call) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.calls.append(call)
        if (body.get("output_config") or {}).get("format"):
            return Reply.json({})  # side work (memory, ...) this test does not script: skipped
        role = self.role_of(call)
        with self._lock:
            if role in self.overloaded_once:
                self.overloaded_once.discard(role)
                return Reply.overloaded()
        if role in self.fail:
            return Reply(status=400, error_type="invalid_request_error")
        if role in self.silent:
            return Reply.says("")
        revising = call.phase == "collaborate_revision"
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
        with self._lock:
            sent = list(zip(self.requests, self.calls, strict=True))
        return [body for body, call in sent if self.role_of(call) == role and not (body.get("output_config") or {})]


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
        roles = [Persona.objects.get(persona_id=pid) for pid in role_personas(mode_spec("collaborate").seats)]
        return debate_create(owner=owner, topic=topic, personas=roles, mode="collaborate")

    return create
