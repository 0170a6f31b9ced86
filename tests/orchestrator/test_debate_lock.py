"""The debate lease: one runner per debate, and looking at it never takes it."""

import threading
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from debates.models import Debate
from debates.services.leases import DebateBusy, LeaseLost, debate_is_being_run, debate_lease
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lock_is_seen_while_held_and_gone_after():
    debate_id = uuid.uuid4()
    assert not debate_is_being_run(debate_id=debate_id)
    with debate_lease(debate_id):
        assert debate_is_being_run(debate_id=debate_id)
    assert not debate_is_being_run(debate_id=debate_id)


def test_a_second_runner_is_refused_while_looking_never_blocks_one():
    debate_id = uuid.uuid4()
    held, release, outcome = threading.Event(), threading.Event(), {}

    def other_worker():
        try:
            with debate_lease(debate_id):
                held.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    held.wait(10)
    try:
        assert debate_is_being_run(debate_id=debate_id)
        with pytest.raises(DebateBusy), debate_lease(debate_id):
            pass
    finally:
        release.set()
        thread.join()
    # a status probe racing a worker that starts the debate never makes the worker find it busy
    for _ in range(50):
        debate_is_being_run(debate_id=debate_id)
    with debate_lease(debate_id):
        outcome["ran"] = True
    assert outcome["ran"]


def test_the_lease_reads_the_owners_stop_and_pause_on_its_own_session(new_debate):
    debate = new_debate()
    with debate_lease(debate.id) as lease:
        assert lease.requests() == (False, False)
        Debate.objects.filter(pk=debate.pk).update(pause_requested=True)
        assert lease.requests() == (False, True)
        Debate.objects.filter(pk=debate.pk).update(stop_requested=True)
        assert lease.requests() == (True, True)
        lease._conn.close()  # the database went away under the run
        with pytest.raises(LeaseLost):
            lease.requests()


def test_a_turn_boundary_asks_for_stop_and_pause_on_the_lease_alone(scripted_api, new_debate):
    scripted_api(dispute="none")
    debate = new_debate(max_turns=3)

    with CaptureQueriesContext(connection) as run_queries:  # the run loop's own connection
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    asked = 'SELECT "debates_debate"."stop_requested" AS "stop_requested", "debates_debate"."pause_requested"'
    assert not [q for q in run_queries.captured_queries if q["sql"].startswith(asked)]
