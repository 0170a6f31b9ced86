"""An Analyst/Critic debate through the real anthropic SDK and the fake Messages API: the Critic's
agreement assessments are scripted round by round; the streamed turns say which role wrote them.
Each call's round comes from its tag (X-Faultline-Call), never from its prompt's wording."""

from __future__ import annotations

import pytest

from debates.modes import mode_spec
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import Call, Reply
from personas.models import Persona
from personas.services import role_personas
from tests.debates.conftest import deck, owner_client, personas  # noqa: F401 (the page tests' fixtures)
from tests.support.fake_anthropic import fake_messages_apis

OVERLOADED = "(overloaded)"  # in a round's list of attempts: that attempt gets HTTP 529
ANALYST_MODEL = "claude-analyst-test"
CRITIC_MODEL = "claude-critic-test"


class CriticScript:
    """``rounds[n - 1]`` is the assessment (a dict, sent as JSON) of round n; past the list, the last
    one again. A value that is a list is sent one item per attempt (the repair retry's test)."""

    def __init__(self, rounds: list, hostile: str = "") -> None:
        self.rounds = rounds
        self.hostile = hostile
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
            return Reply.says(planned) if isinstance(planned, str) else Reply.json(planned)
        number = call.round if call.round is not None else "?"
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


def assessment(agreed=(), disagreed=(), unverifiable=(), overall="moderate", confidence=None) -> dict:
    """The Critic's assessment as the model sends it; ``confidence`` (0-1) on every point when given."""
    sure = {} if confidence is None else {"confidence": confidence}
    return {
        "agreed": [{"point": point, "reasoning": "It holds.", **sure} for point in agreed],
        "disagreed": [{"point": point, "counter_argument": "Not shown.", **sure} for point in disagreed],
        "unverifiable": [{"point": point, "reason": "No data here.", **sure} for point in unverifiable],
        "overall": overall,
    }


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

        def start(rounds: list, hostile: str = "") -> CriticScript:
            script = CriticScript(rounds, hostile)
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
