"""A round whose Critic said nothing usable (empty, twice) gets no agreement assessment: nothing
is read from an empty evaluation, the ledger stays as it was, and the round says why (the live
panel, the CLI). The next round is assessed as usual."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from debates import fragments
from debates.models import Debate, Event
from debates.payloads import EventKind, parse_payload
from debates.selectors import debate_view
from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading
from gateways.llm.models import ModelCall
from orchestration.run import debate_run
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)

ANALYST = {
    1: "1. Nightly backups to a second region cover the loss of a datacentre. 2. A restore drill every quarter is enough.",
    2: "Restating: backups go to a second region every night, and the restore drill runs each quarter.",
    3: "Backups to a second region each night, and a quarterly restore drill, as before.",
}
CRITIC = {
    1: "The second-region backups hold. A quarterly drill is too rare for a database this size.",
    2: "",  # said nothing, twice
    3: "A quarterly drill with a timed restore target is acceptable after all. Both points stand.",
}
ASSESSMENTS = {
    1: {
        "points": [],
        "new_points": [
            {"text": "nightly second-region backups cover a datacentre loss", "status": "accepted"},
            {"text": "a quarterly restore drill suffices", "status": "contested"},
        ],
        "overall": "moderate",
    },
    3: {"points": [{"id": "P1", "status": "accepted"}, {"id": "P2", "status": "accepted"}], "overall": "strong"},
}


class SilentSecondRound:
    def __init__(self) -> None:
        self.assessed_rounds: list[int] = []

    def respond(self, body: dict, call: Call) -> Reply:
        reading = Reading(body, call)
        if reading.title == "AgreementAssessment":
            self.assessed_rounds.append(call.round)
            return Reply.json(ASSESSMENTS[call.round])
        if reading.title:
            return Reply.json({})
        if call.role == "analyst":
            return Reply.says(ANALYST[call.round])
        if call.role == "critic":
            return Reply.says(CRITIC[call.round])
        return Reply.says("Keep nightly second-region backups and a quarterly drill with a restore target.")


@pytest.fixture
def silent(settings):
    script = SilentSecondRound()
    with fake_messages_apis(settings, retries=0) as serve:
        serve(script.respond)
        yield script


def scored(debate) -> list:
    events = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    return [parse_payload(event.kind, event.payload) for event in events]


def test_a_critic_turn_that_said_nothing_gets_no_assessment_and_the_round_says_why(silent, new_ac_debate):
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3).id)

    assert debate.status == Debate.Status.COMPLETED
    assert silent.assessed_rounds == [1, 3]  # no structured call read an empty evaluation
    rounds = scored(debate)
    assert [(r.round, r.assessed, r.skipped, r.score) for r in rounds] == [
        (1, True, "", 50.0),
        (2, False, "critic_silent", 50.0),
        (3, True, "", 100.0),
    ]
    assert rounds[1].points == rounds[0].points  # the ledger as round 1 left it
    assert debate.results["status"] == "consensus" and debate.results["rounds"] == 3
    assert not ModelCall.objects.filter(debate_id=debate.id, phase="assessment", tag__round="2").exists()

    second = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")[1]
    panel = fragments.for_event(debate_view(debate_id=debate.id, upto=second.seq), second.kind, second.payload)
    assert "no assessment: the Critic said nothing usable" in panel


def test_the_cli_says_which_round_went_unassessed_and_why(silent, capsys):
    call_command("rundebate", "--mode", "analyst-critic", "--topic", "Backups?", "--auto-continue")

    lines = capsys.readouterr().out.splitlines()
    assert any(
        line.startswith("Round 2:") and "no assessment: the Critic said nothing usable" in line for line in lines
    )
