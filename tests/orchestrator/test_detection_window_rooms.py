"""What a detection window opens, and what it reads of the debate's rooms to decide it."""

import pytest
from django.db import connection

from crux.models import CruxRoom, DisagreementCandidate
from crux.services.detection import detection_run
from devtools.fake_messages_api import Reply

pytestmark = pytest.mark.django_db(transaction=True)


def _candidate(debate, a, b, dispute, **extra):
    a, b = sorted((a, b), key=lambda persona: persona.id)
    return DisagreementCandidate.objects.create(
        debate=debate,
        persona_a=a,
        persona_b=b,
        dispute=dispute,
        consecutive_windows=2,
        seen_count=2,
        last_window=2,
        confidence=0.9,
        **extra,
    )


def test_a_window_reads_the_rooms_once_and_keeps_each_pairs_cooldown(fake_anthropic, new_debate, monkeypatch):
    # Candidates made by hand have no dispute vectors: they open without waiting a window for one
    # (that wait: tests/orchestrator/test_meaning_tables.py).
    monkeypatch.setattr("crux.staging.VECTOR_WAIT_WINDOWS", 0)
    debate = new_debate()
    ada, bram, cleo = (participant.persona for participant in debate.participants.order_by("seat"))
    first = _candidate(debate, ada, bram, "Is gold money?")
    second = _candidate(debate, ada, bram, "Will central banks outlast this century?")
    other_pair = _candidate(debate, ada, cleo, "Does inflation tax savers?")
    in_room = _candidate(debate, bram, cleo, "Is debt wealth?", status=DisagreementCandidate.Status.IN_CRUX_ROOM)
    CruxRoom.objects.create(
        debate=debate,
        candidate=in_room,
        persona_a=in_room.persona_a,
        persona_b=in_room.persona_b,
        question=in_room.dispute,
        suit="S",
    )
    cooling = _candidate(debate, bram, cleo, "Should rates follow rules?")
    found = [
        {"persona_a": c.persona_a.name, "persona_b": c.persona_b.name, "dispute": c.dispute, "known_id": c.id}
        for c in (first, second, other_pair, cooling)
    ]
    fake_anthropic.script(Reply.json({"disagreements": [{**f, "confidence": 0.9} for f in found]}))
    queries = []

    def record(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        opened = detection_run(debate_id=debate.id, window=3, message_ids=[])

    # Three candidates are ready; the second of Ada and Bram's waits out the cooldown of the room
    # the first just opened, Bram and Cleo's that of their room already there.
    assert [room.candidate_id for room in opened] == [first.id, other_pair.id]
    assert set(CruxRoom.objects.filter(debate=debate).values_list("candidate_id", flat=True)) == {
        in_room.id,
        first.id,
        other_pair.id,
    }
    # One read of the debate's rooms (their questions and when each pair last had one), not one
    # per candidate; each room opened counts the rooms before it for its suit.
    room_reads = [sql for sql in queries if sql.startswith("SELECT") and 'FROM "crux_cruxroom"' in sql]
    assert len(room_reads) == 1 + len(opened), room_reads
