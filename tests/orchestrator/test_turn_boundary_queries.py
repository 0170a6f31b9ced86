"""What a run asks of the database on the debate's critical path: the loop's own queries between
one dialogue turn and the next (between two model calls), and the connections its lanes open."""

import re
import threading
from collections import Counter

import pytest
from django.db import connection

from debates.models import Debate, Message
from orchestration import loop
from orchestration.run import debate_run
from tests.support.connections import on_new_connections

pytestmark = pytest.mark.django_db(transaction=True)

# Between two dialogue turns of one aspect, on the loop's connection (the stop and pause flags are
# read on the lease's own): the side work, crux cards, disputes (the context's open ones and
# turn-taking's stakes, one query) and insights (3); the speaker's corpus check (1); the owner's
# interjections waiting (1: read from the database, so one posted by another process is seen at the
# next turn). A speaker whose view still holds reads no ledger (its blackboard is the one its last
# call sent: orchestration/context.py, Epoch); one whose anchor moves reads, after the ledger wait,
# the positions and the so-far notes, and which messages the ledger has folded (3 more).
DIALOGUE_BOUNDARY_QUERIES = 5
NEW_ANCHOR_QUERIES = 8


def test_a_dialogue_turn_boundary_costs_the_loop_five_queries_or_eight_when_the_anchor_moves(
    scripted_api, new_debate, monkeypatch
):
    scripted_api(dispute="persistent", surface_after=4)
    boundaries = []  # per dialogue turn: the loop thread's queries since the turn before it was said
    queries = []

    def record(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    speak = loop.speak

    def speaking(debate, request, **kwargs):
        if request.kind in (Message.Kind.KEY_ARGUMENT, Message.Kind.REPLY):
            boundaries.append((request.aspect_index, list(queries)))
        try:
            return speak(debate, request, **kwargs)
        finally:
            queries.clear()

    monkeypatch.setattr(loop, "speak", speaking)
    debate = new_debate(max_turns=12)

    with connection.execute_wrapper(record):
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    # A boundary inside an aspect (no phase change, no event appended on the loop's thread).
    same_aspect = [
        sqls for (aspect, sqls), (before, _) in zip(boundaries[1:], boundaries, strict=False) if aspect == before
    ]
    assert len(same_aspect) >= 6
    counts = [len(sqls) for sqls in same_aspect]
    tables = [sorted({_table(sql) for sql in sqls}) for sqls in same_aspect]
    assert DIALOGUE_BOUNDARY_QUERIES in counts, (counts, tables[0])  # a view that holds
    assert set(counts) <= {DIALOGUE_BOUNDARY_QUERIES, NEW_ANCHOR_QUERIES}, (counts, tables)
    # What does not depend on the ledger (the side work, the corpus) is read before the wait for it.
    for sqls in same_aspect:
        order = [_table(sql) for sql in sqls]
        if "debates_positionstate" in order:
            assert order.index("personas_corpuschunk") < order.index("debates_positionstate"), order
            assert order.index("crux_disagreementcandidate") < order.index("debates_positionstate"), order


def _table(sql: str) -> str:
    match = re.search(r'FROM "(\w+)"', sql)
    return match.group(1) if match else sql[:40]


def test_lane_jobs_borrow_pooled_connections_and_start_no_backend_of_their_own(scripted_api, new_debate, settings):
    """A connection per job used to start a PostgreSQL backend per detection window, note or room
    ledger update, on the cores the main channel's turns share; from the pool (ops/connections.py)
    a job takes one already open, and gives it back when it ends."""
    scripted_api(dispute="persistent", surface_after=4)
    taken, backends = [], set()

    def note(sender, connection, **kwargs):
        taken.append(threading.current_thread().name)
        backends.add(connection.connection.info.backend_pid)

    debate = new_debate(max_turns=12)
    with on_new_connections(note):
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    lane_jobs = [name for name in taken if "-" in name]
    assert any(name.startswith("detection-") for name in lane_jobs), Counter(taken)
    assert len(backends) <= settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"]
    assert len(lane_jobs) > 3 * len(backends), (len(lane_jobs), len(backends))
