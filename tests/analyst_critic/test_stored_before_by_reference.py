"""A debate stored before points were judged by reference (its round_scored payloads and results
written by the word-matching ledger, where "superseded" meant "its negation was agreed") renders
as it did: the same groups and words on the page, the same lines in the CLI, the same insights."""

from __future__ import annotations

import pytest
from django.db.models import F

from debates import fragments
from debates.models import Debate, Event
from debates.payloads import EventKind
from debates.selectors import debate_view
from memory.extraction import ledger_insights
from orchestration.modes.analyst_critic.printer import print_analyst_critic
from tests.debates.log_builder import DebateLog

pytestmark = pytest.mark.django_db

SAFER = "Rust is safer than C for systems code"
NOT_SAFER = "Rust is not safer than C for systems code"
HIRING = "Rust's borrow checker slows down new hires"
BY_2030 = "Rust will overtake C in embedded work by 2030"

# Exactly as the word-matching ledger wrote them (no field added since).
OLD_POINTS = [
    {"text": SAFER, "status": "superseded", "note": "It holds.", "first_round": 1, "last_round": 2,
     "was_contested": False, "from_memory": False, "confidence": None, "supersedes": None, "superseded_by": 2,
     "challenges": []},
    {"text": HIRING, "status": "agreed", "note": "It holds.", "first_round": 1, "last_round": 2,
     "was_contested": True, "from_memory": False, "confidence": 0.8, "supersedes": None, "superseded_by": None,
     "challenges": []},
    {"text": NOT_SAFER, "status": "agreed", "note": "It holds.", "first_round": 2, "last_round": 2,
     "was_contested": False, "from_memory": False, "confidence": 0.8, "supersedes": 0, "superseded_by": None,
     "challenges": []},
    {"text": BY_2030, "status": "unverifiable", "note": "No data here.", "first_round": 2, "last_round": 2,
     "was_contested": False, "from_memory": False, "confidence": 0.8, "supersedes": None, "superseded_by": None,
     "challenges": []},
]  # fmt: skip
OLD_ROUNDS = [
    {"round": 1, "score": 50.0, "consensus": False, "assessed": True, "level": "moderate", "agreed": 1,
     "contested": 1, "unverifiable": 0, "points": []},
    {"round": 2, "score": 66.7, "consensus": False, "assessed": True, "level": "moderate", "agreed": 2,
     "contested": 0, "unverifiable": 1, "points": OLD_POINTS},
    {"round": 3, "score": 66.7, "consensus": False, "assessed": False, "level": "", "agreed": 2, "contested": 0,
     "unverifiable": 1, "points": OLD_POINTS},
]  # fmt: skip
OLD_RESULTS = {
    "mode": "analyst_critic",
    "status": "max_rounds",
    "regime": "partial",
    "regime_basis": "Rests on the point ledger (2 agreed, 0 contested, 1 unverifiable; an unverifiable point is open).",
    "score": 66.7,
    "rounds": 3,
    "agreed": [HIRING, NOT_SAFER],
    "contested": [],
    "unverifiable": [BY_2030],
    "superseded": [SAFER],
    "points": OLD_POINTS,
    "synthesis": "Rust is not safer than C once unsafe blocks are counted.",
}


@pytest.fixture
def old_debate(new_ac_debate):
    debate = new_ac_debate(max_rounds=3)
    DebateLog(debate).start()
    for payload in OLD_ROUNDS:  # the rows as stored, not written through today's payload type
        Debate.objects.filter(pk=debate.pk).update(last_seq=F("last_seq") + 1)
        seq = Debate.objects.values_list("last_seq", flat=True).get(pk=debate.pk)
        Event.objects.create(debate=debate, seq=seq, kind=EventKind.ROUND_SCORED, payload=payload)
    Debate.objects.filter(pk=debate.pk).update(status=Debate.Status.COMPLETED, results=OLD_RESULTS)
    return Debate.objects.get(pk=debate.pk)


def test_the_page_shows_an_old_ledger_with_its_old_groups_and_words(old_debate):
    page = fragments.snapshot(debate_view(debate_id=old_debate.id))

    assert "Superseded (their negation was agreed)" in page
    assert f'<span class="ledger-supersedes">supersedes: {SAFER}</span>' in page
    assert f"superseded in round 2 by: {NOT_SAFER}" in page
    assert "67%" in page and "Critic's confidence 80%" in page


def test_the_cli_and_memory_read_an_old_debate_as_they_did(old_debate):
    lines: list[str] = []
    print_analyst_critic(old_debate, lines.append)

    assert "Round 2: consensus score 67% — 2 agreed, 0 contested, 1 unverifiable" in lines
    assert "Round 3: consensus score 67% — 2 agreed, 0 contested, 1 unverifiable (assessment skipped)" in lines
    assert f"  SUPERSEDED (its negation was agreed): {SAFER}" in lines
    assert f"  UNVERIFIABLE: {BY_2030}" in lines
    assert {(draft.kind, draft.text) for draft in ledger_insights(OLD_POINTS)} == {
        ("decision", HIRING),
        ("agreed", NOT_SAFER),
    }
