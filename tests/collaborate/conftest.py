"""A Collaborate run through the real anthropic SDK and the fake Messages API: the Architect and
the Reviewer answer slowly enough (streamed in timed chunks) that running side by side shows in
the call ledger; what each call writes is keyed on the call's role and phase (its X-Faultline-Call header), never on the prompt's wording."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import pytest

from debates.modes import mode_spec
from debates.services.lifecycle import debate_create
from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading, schema_title
from personas.models import Persona
from personas.services import role_personas
from tests.debates.conftest import deck, owner_client, personas  # noqa: F401 (the page tests' fixtures)
from tests.support.fake_anthropic import fake_messages_apis

ARCHITECT_MODEL = "claude-architect-test"
REVIEWER_MODEL = "claude-reviewer-test"
SYNTHESIS_MODEL = "claude-synthesis-test"
BRIEF = "Design a URL shortener for ten million links a day"
ARTIFACT = "# URL shortener design\n\n## Storage\n\n- Postgres, base62 keys\n\n## Open questions\n\n- Custom aliases?"
# The reader's default: each role's first answer makes one decision, and the other accepts it.
AGREEING_DECISIONS = {"Architect": ["one Postgres table with base62 keys"], "Reviewer": ["rate limits per API key"]}
AGREEING_REACTIONS = {"Architect": ["accepts"], "Reviewer": ["accepts"]}


@dataclass
class Reader:
    """The scripted reader of the verdict's two structured calls, answering by their schema
    titles and reading only the data lines (devtools/prompt_reading.py): the key decisions of the
    first answers (``decisions``: role name -> the decisions its first answer makes, in the
    reader's own words; ``question``: the yes/no question it takes the brief to decide), and the
    review of the revised answers, by the ids it was shown (``reactions``: role name -> what the
    other role's revision does with each of its decisions, in order: "accepts", "rejects",
    "undecided", or "withdrawn" when its own role drops it; ``sides``: role name -> its revision's
    answer to the question; ``unknown_id``: an id it cites that nobody gave it; ``leave_out``: ids
    it does not answer; ``fails``: its review is not a review)."""

    decisions: dict = field(default_factory=lambda: dict(AGREEING_DECISIONS))
    question: str | None = None
    reactions: dict = field(default_factory=lambda: dict(AGREEING_REACTIONS))
    sides: dict = field(default_factory=dict)
    unknown_id: str = ""
    leave_out: tuple = ()
    fails: bool = False


class CollaborationScript:
    """Answers each role's calls; ``artifact`` is what the synthesis says (a Reply or a string),
    ``fail`` names roles ("architect", "reviewer", "synthesis") whose calls get an HTTP 400,
    ``overloaded_once`` roles whose first call gets an HTTP 529, ``silent`` roles whose calls answer
    with no text at all. ``texts`` replaces what a role writes: {("architect", "draft"): "...",
    ("reviewer", "revision"): "...", ...}; ``reader`` answers the structured calls (Reader)."""

    def __init__(
        self,
        *,
        artifact=ARTIFACT,
        fail=(),
        overloaded_once=(),
        silent=(),
        hostile: str = "",
        chunk_delay: float = 0.02,
        texts: dict | None = None,
        reader: Reader | None = None,
    ) -> None:
        self.artifact = artifact
        self.fail = set(fail)
        self.silent = set(silent)
        self.overloaded_once = set(overloaded_once)
        self.hostile = hostile
        self.chunk_delay = chunk_delay
        self.texts = texts or {}
        self.reader = reader or Reader()
        self.requests: list[dict] = []
        self.calls: list[Call] = []  # what each request was, beside it
        self._lock = threading.Lock()

    def _structured(self, title: str, reading: Reading) -> Reply:
        reader = self.reader
        if title == "KeyDecisions":
            turns = {said.name: said.turn for said in reading.said}  # the first answers, by role
            made = [
                {"turn": turns[role], "decision": decision}
                for role, decisions in reader.decisions.items()
                if role in turns
                for decision in decisions
            ]
            return Reply.json({"question": reader.question, "no_yes_no_question_fits": False, "decisions": made})
        if title == "DecisionReview":
            if reader.fails:
                return Reply.json({"not": "a review"})
            return Reply.json(self._review(reading))
        return Reply.json({})  # side work (memory, ...) this test does not script: skipped

    def _review(self, reading: Reading) -> dict:
        """Each decision it was shown (``[D1] Architect: ...``), by its id: its own role keeps it
        unless withdrawn, and the other role's revision reacts as ``reactions`` says."""
        reader, taken, seen = self.reader, [], {}
        for item in reading.items.values():
            role = item.holder
            index = seen[role] = seen.get(role, -1) + 1
            said = (reader.reactions.get(role) or [])[index : index + 1] or ["undecided"]
            if item.id in reader.leave_out:
                continue
            withdrawn = said[0] == "withdrawn"
            taken.append(
                {"decision": item.id, "kept": not withdrawn, "reaction": "undecided" if withdrawn else said[0]}
            )
        if reader.unknown_id:
            taken.append({"decision": reader.unknown_id, "kept": True, "reaction": "accepts"})
        turns = {said.name: said.turn for said in reading.said}  # the revised answers, by role
        answers = [{"turn": turns[role], "side": side} for role, side in reader.sides.items() if role in turns]
        return {"decisions": taken, "answers": answers}

    @staticmethod
    def role_of(call: Call) -> str:
        if call.phase == "collaborate_artifact":
            return "synthesis"
        return call.role if call.role in ("architect", "reviewer") else "other"

    def respond(self, body: dict, call: Call) -> Reply:
        with self._lock:
            self.requests.append(body)
            self.calls.append(call)
        if title := schema_title(body):
            return self._structured(title, Reading(body, call))
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
        if written := self.texts.get((role, "revision" if revising else "draft")):
            return Reply.says(written, chunk_size=40, chunk_delay=0)
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
