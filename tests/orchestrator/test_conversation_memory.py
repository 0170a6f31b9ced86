"""Conversation memory through the real pieces: the rolling summary every 12 main-channel messages
(the run loop, the notes lane, the persona context, the "Where we are" panel and the exports), and
proposals whose decision is recorded only when every participant accepts (the ledger update)."""

import json

import pytest
from django.core.management import call_command

from debates import fragments
from debates.blackboard.ledger import ledger_digest
from debates.blackboard.models import BlackboardNotes
from debates.blackboard.summaries import SUMMARY_EVERY
from debates.exports import debate_markdown
from debates.models import Debate, Event, Message
from debates.payloads import EventKind
from debates.selectors import debate_view
from devtools.fake_messages_api import Reply, user_text

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ada Hardmoney", "Bram Macro", "Cleo Central")


def test_a_rolling_summary_every_twelve_messages_reaches_the_context_the_panel_and_the_export(
    scripted_api, personas, tmp_path
):
    scripted_api(dispute="none")
    trace = tmp_path / "trace.jsonl"
    call_command(
        "rundebate",
        "--personas",
        ",".join(NAMES),
        "--topic",
        "Is gold still a store of value?",
        "--max-turns",
        "24",
        "--trace",
        str(trace),
    )
    debate = Debate.objects.get()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    main = Message.objects.filter(debate=debate, room__isnull=True).count()
    assert main == 3 + 24 + 3

    notes = BlackboardNotes.objects.get(debate=debate)
    spans = [(s["from_turn"], s["to_turn"]) for s in notes.summaries]
    assert spans == [(1, SUMMARY_EVERY), (SUMMARY_EVERY + 1, 2 * SUMMARY_EVERY)]  # 30 messages: two summaries
    assert notes.summaries[0]["text"].startswith("Messages 1 to 12: ")
    noted = Event.objects.filter(debate=debate, kind=EventKind.CONVERSATION_NOTED).order_by("seq")
    assert [len(e.payload["summaries"]) for e in noted] == [1, 2]

    calls = [json.loads(line) for line in trace.read_text().splitlines()]
    contexts = [user_text(c) for c in calls if c["role"] == "persona"]
    assert any("So far: Messages 1 to 12: " in context for context in contexts)
    assert not any("So far: Messages" in context for context in contexts[:SUMMARY_EVERY])  # none before the first

    view = debate_view(debate_id=debate.id)
    panel = fragments.snapshot(view)
    assert 'id="where-we-are"' in panel and "Messages 13–24:" in panel and "No decision everyone accepted." in panel
    assert "Summary of messages 13–24: Messages 13 to 24:" in debate_markdown(debate=debate, view=view)


def _said(debate, seat, turn, text):
    participant = debate.participants.get(seat=seat)
    message = Message.objects.create(
        debate=debate, persona=participant.persona, turn=turn, text=text, status=Message.Status.COMPLETE
    )
    assert ledger_digest(messages=[Message.objects.select_related("debate", "persona").get(pk=message.pk)])


def test_a_decision_is_recorded_when_everyone_accepts_and_not_before(fake_anthropic, new_debate):
    debate = new_debate()
    fake_anthropic.script(*[Reply.json({}) for _ in range(6)])  # the digests read nothing into them

    _said(debate, 1, 1, "I propose a gold-backed reserve tranche for the central bank.")
    _said(debate, 2, 2, "Count me in on the tranche.")
    _said(debate, 0, 3, "I'd accept the tranche if it were small, but I am not there yet.")
    notes = BlackboardNotes.objects.get(debate=debate)
    assert notes.proposals[0]["status"] == "active" and notes.decisions == []
    assert notes.proposals[0]["reactions"] == {"Cleo Central": "support", "Ada Hardmoney": "undetermined"}

    _said(debate, 0, 4, "I don't accept a reserve tranche of that size.")
    notes.refresh_from_db()
    assert notes.proposals[0]["reactions"]["Ada Hardmoney"] == "oppose" and notes.decisions == []

    _said(debate, 0, 5, "All right, I'm on board with Bram's tranche.")
    notes.refresh_from_db()
    assert notes.proposals[0]["status"] == "accepted"
    assert notes.decisions == ["A gold-backed reserve tranche for the central bank."]

    latest = Event.objects.filter(debate=debate, kind=EventKind.CONVERSATION_NOTED).latest("seq").payload
    assert latest["decisions"] == notes.decisions
    view = debate_view(debate_id=debate.id)
    html = fragments.for_event(view, EventKind.CONVERSATION_NOTED, latest)
    assert 'id="where-we-are"' in html and "(everyone accepted)" in html and "Ada Hardmoney accepts" in html
    markdown = debate_markdown(debate=debate, view=view)
    assert "- A gold-backed reserve tranche for the central bank. (everyone accepted)" in markdown
