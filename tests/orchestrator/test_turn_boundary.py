"""Between two dialogue turns the loop's thread reads only what depends on the last turn or the
position ledger: the side lanes' work (crux cards, disputes, insights, round notes) was read on the
persist lane while the last turn streamed (loop.DebateRun.side_work), and the next speaker still
sees it."""

import json
import threading

import pytest
from django.db import connection

from crux.models import CruxCard, DisagreementCandidate
from debates.blackboard.models import BlackboardNotes, Reflection
from debates.models import Debate
from faultline.llm import gateway
from faultline.llm.types import Role
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)

SIDE_WORK_TABLES = [model._meta.db_table for model in (CruxCard, DisagreementCandidate, Reflection, BlackboardNotes)]


def test_a_dialogue_turn_boundary_reads_no_side_work_on_the_loops_thread(scripted_api, new_debate, monkeypatch):
    api, _ = scripted_api(dispute="persistent", surface_after=2, latency=0.05)
    scripted = api.responder
    requests = []  # the persona prompts' user text, in order

    def recording(body):
        system = json.dumps(body.get("system", ""))
        if "You are " in system and "taking part" in system:
            requests.append(json.dumps(body.get("messages", [])))
        return scripted(body)

    api.responder = recording
    loop = threading.current_thread()
    log = []  # on the loop's thread, in order: ("call", phase) / ("done", phase) / ("sql", text)
    stream = gateway.stream

    def marked(*, role, tag, **rest):
        mine = role == Role.PERSONA and threading.current_thread() is loop
        if mine:
            log.append(("call", tag.phase))
        reply = stream(role=role, tag=tag, **rest)
        if mine:
            log.append(("done", tag.phase))
        return reply

    def recorded(execute, sql, params, many, context):
        log.append(("sql", sql))
        return execute(sql, params, many, context)

    monkeypatch.setattr(gateway, "stream", marked)
    debate = new_debate(max_turns=8)

    with connection.execute_wrapper(recorded):
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    boundaries, queries, before = [], [], ""
    for entry in log:
        if entry[0] == "done":
            queries, before = [], entry[1]
        elif entry[0] == "call":
            if before.startswith("dialogue") and entry[1].startswith("dialogue"):
                boundaries.append(queries)
            before = ""
        else:
            queries.append(entry[1])
    assert len(boundaries) >= 6
    # A boundary reads them itself only when the lane has not done it yet (still writing a turn):
    # main reads them at every boundary.
    inline = [queries for queries in boundaries if any(t in sql for sql in queries for t in SIDE_WORK_TABLES)]
    assert len(inline) <= len(boundaries) // 3, inline
    # The side work is still seen: detection's disputes reach later dialogue turns' context.
    assert any("OPEN DISPUTES" in user and "[" in user.split("OPEN DISPUTES", 1)[1][:400] for user in requests)
