"""An Analyst/Critic debate through the real anthropic SDK and the fake Messages API: the Critic's
agreement assessments are scripted round by round; the streamed turns say which role wrote them.
Each call's round comes from its tag (X-Faultline-Call), never from its prompt's wording.

A scripted assessment (``assessment``) lists the points the Critic accepts, rejects or cannot
verify by their wording; the script answers by reference, as the assessor is asked to: a wording
that is an open point's (its item line ``[P1] (status) wording``) is named by that point's id,
any other is a new point (``by_reference``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from debates.modes import mode_spec
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading
from personas.models import Persona
from personas.services import role_personas
from tests.debates.conftest import deck, owner_client, personas  # noqa: F401 (the page tests' fixtures)
from tests.support.fake_anthropic import fake_messages_apis

OVERLOADED = "(overloaded)"  # in a round's list of attempts: that attempt gets HTTP 529
ANALYST_MODEL = "claude-analyst-test"
CRITIC_MODEL = "claude-critic-test"


class CriticScript:
    """``rounds[n - 1]`` is the assessment (a dict, sent as JSON) of round n; past the list, the last
    one again. A value that is a list is sent one item per attempt (the repair retry's test).
    ``analyst``: what the Analyst says in round n, where a test gives it (``analyst[n]``)."""

    def __init__(self, rounds: list, hostile: str = "", analyst: dict[int, str] | None = None) -> None:
        self.rounds = rounds
        self.hostile = hostile
        self.analyst = analyst or {}
        self.attempts: dict[int, int] = {}
        self.requests: list[dict] = []

    def respond(self, body: dict, call: Call) -> Reply:
        self.requests.append(body)
        output = (body.get("output_config") or {}).get("format")
        if output and output.get("schema", {}).get("title") != "AgreementAssessment":
            return Reply.json({})  # side work (memory, ...) this test does not script: skipped
        if output:
            number = call.round
            planned = self.rounds[min(number, len(self.rounds)) - 1]
            if isinstance(planned, list):
                attempt = self.attempts.get(number, 0)
                self.attempts[number] = attempt + 1
                planned = planned[min(attempt, len(planned) - 1)]
            if planned == OVERLOADED:
                return Reply.overloaded()
            if isinstance(planned, Planned):
                return Reply.json(by_reference(planned, open_points(Reading(body, call))))
            return Reply.says(planned) if isinstance(planned, str) else Reply.json(planned)
        number = call.round if call.round is not None else "?"
        if call.role == "analyst" and call.round in self.analyst:
            return Reply.says(self.analyst[call.round])
        if call.role == "analyst":
            return Reply.says(
                f"1. Index funds beat most active managers. 2. Fees compound.{self.hostile} Round {number}."
            )
        if call.role == "critic":
            return Reply.says(f"The first point holds; the rest needs more support. Round {number}.")
        return Reply.says("Synthesis: index funds, low fees and yearly rebalancing, all agreed.")


A = "Index funds beat most active managers over ten years"
A_RESTATED = "Over ten years, most active managers are beaten by index funds"
B = "Fees compound into a large drag on returns"
C = "Rebalancing once a year is enough"
C_RESTATED = "Rebalancing once every year is enough."


@dataclass(frozen=True)
class Planned:
    """The Critic's verdicts on points by their wording; ``confidence`` (0-1) on each when given."""

    agreed: tuple = ()
    disagreed: tuple = ()
    unverifiable: tuple = ()
    overall: str = "moderate"
    confidence: float | None = None


def assessment(agreed=(), disagreed=(), unverifiable=(), overall="moderate", confidence=None) -> Planned:
    return Planned(tuple(agreed), tuple(disagreed), tuple(unverifiable), overall, confidence)


_POINT = re.compile(r"^\((?:[^()]*)\) (.*)$", re.S)  # an open point's item text: "(status; notes) wording"


def open_points(reading: Reading) -> dict[str, str]:
    """The open points a call is shown: id -> wording, from their item lines."""
    return {key: match[1] for key, item in reading.items.items() if (match := _POINT.match(item.text))}


def by_reference(planned: Planned, shown: dict[str, str]) -> dict:
    """The assessment as the model sends it: a wording an open point has is named by its id, any
    other is a new point."""
    ids = {" ".join(text.split()): key for key, text in shown.items()}
    sure = {} if planned.confidence is None else {"confidence": planned.confidence}
    points, new = [], []
    reasons = {"accepted": "It holds.", "contested": "Not shown.", "unverifiable": "No data here."}
    for status, texts in (("accepted", planned.agreed), ("contested", planned.disagreed),
                          ("unverifiable", planned.unverifiable)):  # fmt: skip
        for text in texts:
            entry = {"status": status, "reason": reasons[status], **sure}
            if key := ids.get(" ".join(text.split())):
                points.append({"id": key, **entry})
            else:
                new.append({"text": text, **entry})
    return {"points": points, "new_points": new, "overall": planned.overall}


STEP_BY_STEP = [
    assessment(agreed=[A], disagreed=[B, C], overall="weak"),
    assessment(agreed=[A, B], disagreed=[C]),
    assessment(agreed=[A_RESTATED, B, C_RESTATED], overall="strong"),
]
NEVER_AGREES = [assessment(agreed=[A], disagreed=[B])]


@pytest.fixture
def critic_api(settings):
    models = {"analyst": ANALYST_MODEL, "critic": CRITIC_MODEL}
    with fake_messages_apis(settings, retries=0, models=models) as serve:

        def start(rounds: list, hostile: str = "", analyst: dict[int, str] | None = None) -> CriticScript:
            script = CriticScript(rounds, hostile, analyst)
            serve(script.respond)
            return script

        yield start


@pytest.fixture
def new_ac_debate(db):
    def create(max_rounds=5, topic="Should a saver buy index funds?", owner=None, auto_continue=True, context=None):
        roles = [Persona.objects.get(persona_id=pid) for pid in role_personas(mode_spec("analyst_critic").seats)]
        return debate_create(
            owner=owner,
            topic=topic,
            personas=roles,
            mode="analyst_critic",
            max_turns=max_rounds,
            options=DebateOptions(auto_continue=auto_continue),
            context=context,
        )

    return create
