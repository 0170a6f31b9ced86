"""What a crux room's turns ask of the database beside the conversation: the room reads the
participants once, and a room's ledger digest does not read back what the run holds."""

import threading
from collections import defaultdict

import pytest

from crux.models import CruxRoom
from debates.models import Debate, Message
from orchestration.ledger_folding import ROOM_DIGEST_MESSAGES
from orchestration.run import debate_run
from tests.support.connections import on_new_connections

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_room_reads_its_participants_once_and_its_ledger_updates_read_no_message_back(scripted_api, new_debate):
    scripted_api(dispute="persistent", surface_after=4)
    queries = defaultdict(list)  # lane (thread name up to its debate) -> SQL

    def record(execute, sql, params, many, context):
        queries[threading.current_thread().name.split("-")[0]].append(sql)
        return execute(sql, params, many, context)

    def install(sender, connection, **kwargs):
        connection.execute_wrappers.append(record)

    debate = new_debate(max_turns=15)
    with on_new_connections(install):
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    room = CruxRoom.objects.get(debate=debate)
    room_turns = Message.objects.filter(room=room, status=Message.Status.COMPLETE).count()
    assert room_turns >= 2 and Message.objects.filter(room=room, ledgered=False).count() == 0
    participant_reads = [sql for sql in queries["rooms"] if 'FROM "debates_participant"' in sql]
    assert len(participant_reads) == 1, participant_reads
    ledger = queries["room_ledger"]
    assert not [sql for sql in ledger if 'FROM "debates_participant"' in sql]
    # The only message read is the turns before each digest (the ledger keeper's recent messages).
    message_reads = [sql for sql in ledger if sql.startswith("SELECT") and 'FROM "debates_message"' in sql]
    assert len(message_reads) == -(-room_turns // ROOM_DIGEST_MESSAGES), message_reads
