"""The debate lease: one runner per debate, and looking at it never takes it."""

import threading
import uuid

import pytest
from django.db import connection

from debates.services.leases import DebateBusy, debate_is_being_run, debate_lease

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
