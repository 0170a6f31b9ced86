"""Issue 39's first story, through the mode, in a real model's voice: the Analyst restates "cuts
p99 latency by about a third" as "reduces tail latency by roughly 33 percent" and narrows "we can
hire the engineers" into "staffing is feasible with a six-month ramp"; the Critic accepts both
from round 2, ending each evaluation with Proflow's Agreement Assessment. The assessment is read
from that section, by the points' ids: consensus in round 2, at 100%, no point listed twice.

The scripted assessor answers by the call's tag (its round, the ids it is about) and the
schema's title, never by the prompt's wording (every prompt is reworded in the test run); what
it is shown it reads from the two documented data lines only."""

from __future__ import annotations

import pytest

from debates.models import Debate, Event, Message
from debates.payloads import EventKind, parse_payload
from devtools.fake_messages_api import Call, Reply
from devtools.prompt_reading import Reading
from orchestration.run import debate_run
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)

ANALYST = {
    1: """Yes, this year, for checkout only.

1. Porting checkout to Rust cuts p99 latency by about a third: replaying last November's peak, the prototype went from 410 ms to 270 ms.
2. We can hire the engineers we need for it.
3. The move goes one endpoint at a time behind the existing API gateway, so every step can be rolled back.""",
    2: """Refined on your evaluation.

1. On the Rust path, checkout reduces tail latency by roughly 33 percent, per the same peak replay.
2. Staffing is feasible with a six-month ramp: two of our engineers start Rust training this month, and we add one senior Rust engineer.
3. The endpoint-by-endpoint plan behind the gateway stands as agreed.""",
}
CRITIC = {
    1: """The latency result holds as far as a replay can show it: 410 ms down to 270 ms is a cut of about 34%. The endpoint-by-endpoint plan is also sound, since the gateway already routes by path. Hiring is where I part ways with you: nobody on the team writes Rust today.

## Agreement Assessment

### Points I AGREE with:
- The prototype's p99 cut of roughly a third, measured on a replay of peak traffic.
- Migrating one endpoint at a time behind the gateway, with a rollback at every step.

### Points I DISAGREE with:
- That the team can simply hire the engineers: no pipeline, no timeline.

### Points that are UNVERIFIABLE:
- Nothing here.

Overall agreement level: Moderate""",
    2: """The latency figure is the same result in other words, and I still accept it. Retraining two people you already have, plus one senior recruit, over six months, is realistic: it meets my objection. The migration plan stands as before.

## Agreement Assessment

### Points I AGREE with:
- A p99 reduction of about 33% for checkout, from the peak replay.
- Staffing over a six-month ramp, two engineers retrained and one senior recruit.
- Endpoint-by-endpoint migration behind the gateway.

### Points I DISAGREE with:
- None.

### Points that are UNVERIFIABLE:
- Nothing at all.

Overall agreement level: Strong""",
}
SYNTHESIS = "Move checkout to Rust this year: a third off p99 latency, a six-month staffing ramp, endpoint by endpoint."

# The assessor's answers, in its own words, by the ids the ledger shows (P1, P2, P3 from round 1).
ASSESSMENTS = {
    1: {
        "points": [],
        "new_points": [
            {"text": "a Rust checkout has a third lower p99 latency on the peak replay", "status": "accepted"},
            {"text": "the company can hire the Rust engineers it needs", "status": "contested"},
            {"text": "port endpoint by endpoint behind the gateway, each step reversible", "status": "accepted"},
        ],
        "overall": "moderate",
    },
    2: {
        "points": [
            {"id": "P1", "status": "accepted", "reason": "the 33% drop is the same replay result"},
            {
                "id": "P2",
                "status": "refined",
                "new_wording": "staffing works over a six-month ramp: two retrained, one senior recruit",
                "verdict": "accepted",
                "quote": "Staffing is feasible with a six-month ramp",
            },
            {"id": "P3", "status": "accepted"},
        ],
        "new_points": [],
        "overall": "strong",
    },
}


class RealVoice:
    """Speaks the story's lines by the call's role and round; answers the assessment by its round,
    after checking it was shown the open points' ids and the Critic's section."""

    def __init__(self) -> None:
        self.shown: dict[int, dict] = {}

    def respond(self, body: dict, call: Call) -> Reply:
        reading = Reading(body, call)
        if reading.title == "AgreementAssessment":
            answer_turn, section_turn = call.turns
            section = reading.said_at(section_turn)
            self.shown[call.round] = {
                "ids": list(call.items),
                "items": [key for key in reading.items if key.startswith("P")],
                "answer": reading.said_at(answer_turn).text,
                "section": section.text if section else "",
            }
            return Reply.json(ASSESSMENTS[call.round])
        if reading.title:
            return Reply.json({})  # side work this test does not script (memory)
        if call.role == "analyst":
            return Reply.says(ANALYST[call.round], chunk_size=40)
        if call.role == "critic":
            return Reply.says(CRITIC[call.round], chunk_size=40)
        return Reply.says(SYNTHESIS)


@pytest.fixture
def voice(settings):
    voice = RealVoice()
    with fake_messages_apis(settings, retries=0) as serve:
        serve(voice.respond)
        yield voice


def test_a_restated_and_a_narrowed_point_reach_consensus_in_round_2_with_no_point_listed_twice(voice, new_ac_debate):
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3, topic="Should we move checkout to Rust this year?").id)

    assert debate.status == Debate.Status.COMPLETED
    rounds = [
        parse_payload(e.kind, e.payload)
        for e in Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    ]
    assert [(r.round, r.score, r.consensus) for r in rounds] == [(1, 66.7, False), (2, 100.0, True)]
    results = debate.results
    assert (results["status"], results["regime"], results["score"], results["rounds"]) == (
        "consensus",
        "consensus",
        100.0,
        2,
    )
    held = [(point["status"], point["text"]) for point in results["points"] if point["status"] != "refined"]
    assert held == [
        ("agreed", "a Rust checkout has a third lower p99 latency on the peak replay"),
        ("agreed", "port endpoint by endpoint behind the gateway, each step reversible"),
        ("agreed", "staffing works over a six-month ramp: two retrained, one senior recruit"),
    ]
    assert results["refined"] == ["the company can hire the Rust engineers it needs"]
    assert results["contested"] == [] and results["unverifiable"] == []

    # Round 2's assessment was shown the three open points by id, the Analyst's answer, and the
    # Critic's Agreement Assessment section (not its evaluation before it): one source.
    assert voice.shown[2]["ids"] == ["P1", "P2", "P3"] == voice.shown[2]["items"]
    assert voice.shown[2]["answer"].startswith("Refined on your evaluation.")
    assert voice.shown[2]["section"].startswith("## Agreement Assessment")
    assert "Retraining two people" not in voice.shown[2]["section"]
    # The Critic's message kept its whole section (its turn kind's cap leaves room for it).
    critique = Message.objects.get(debate=debate, kind=Message.Kind.CRITIQUE, turn=4)
    assert critique.text.endswith("Overall agreement level: Strong")
