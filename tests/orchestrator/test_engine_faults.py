"""The engine holds its debate to the end, waits out model outages, and never leaves a debate
'running' on an error."""

import threading
import time

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from crux.models import CruxRoom
from debates.blackboard.models import BlackboardNotes
from debates.models import Debate, Event, Message
from debates.services.leases import debate_is_being_run
from debates.services.lifecycle import debate_can_resume
from devtools.fake_messages_api import Reply
from orchestration.modes import discussion
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)


def run_in_background(debate_id) -> threading.Thread:
    def target():
        try:
            debate_run(debate_id=debate_id)
        finally:
            connection.close()

    thread = threading.Thread(target=target, name="orchestrator-under-test")
    thread.start()
    return thread


def assert_one_clean_finish(debate):
    turns = list(
        Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").values_list("turn", flat=True)
    )
    assert turns == list(range(1, len(turns) + 1)), "a turn was repeated or lost"
    assert Event.objects.filter(debate=debate, kind="debate_finished").count() == 1
    seqs = list(Event.objects.filter(debate=debate).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


def test_the_lease_is_held_through_the_closings_and_the_finish(scripted_api, new_debate):
    scripted_api(dispute="none", latency=0.1)
    debate = new_debate(max_turns=3)
    thread = run_in_background(debate.id)
    seen_phases, unheld = set(), []
    while thread.is_alive():
        status, phase = Debate.objects.values_list("status", "phase").get(pk=debate.pk)
        held = debate_is_being_run(debate_id=debate.id)  # probed from this test's own connection
        # Still running after the probe too: a run that finished between the two reads let go of
        # the lease after its last write, as it should.
        still = Debate.objects.filter(pk=debate.pk, status=Debate.Status.RUNNING).exists()
        if status == Debate.Status.RUNNING:
            seen_phases.add(phase.split(":")[0])
            if not held and still:
                unheld.append(phase)
        time.sleep(0.05)
    thread.join()

    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.COMPLETED
    assert {"opening", "closing", "done"} & seen_phases >= {"opening", "closing"}
    assert unheld == [], f"the lease was free while the debate ran (phases {unheld})"
    assert not debate_is_being_run(debate_id=debate.id)  # and let go once it ended


def test_a_resume_while_the_debate_runs_is_refused_every_time(scripted_api, new_debate):
    scripted_api(dispute="none", latency=0.1)
    debate = new_debate(max_turns=3)
    thread = run_in_background(debate.id)
    attempts, refused, during_closings = 0, 0, 0
    while thread.is_alive():
        phase = Debate.objects.values_list("phase", flat=True).get(pk=debate.pk)
        if Debate.objects.filter(pk=debate.pk, status=Debate.Status.RUNNING).exists():
            attempts += 1
            assert not debate_can_resume(debate=Debate.objects.get(pk=debate.pk))
            try:
                call_command("rundebate", "--resume", str(debate.id))
            except CommandError:
                refused += 1
                during_closings += phase == "closing"
        time.sleep(0.1)
    thread.join()

    debate.refresh_from_db()
    assert debate.status == Debate.Status.COMPLETED
    assert attempts >= 5 and refused == attempts and during_closings >= 1
    assert_one_clean_finish(debate)
    assert not Event.objects.filter(debate=debate, kind="debate_resumed").exists()


def test_a_529_storm_that_outlasts_several_growing_waits_is_waited_out_and_the_debate_finishes(
    scripted_api, new_debate, settings
):
    api, script = scripted_api(dispute="none")
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 300
    # Every call is refused, side calls too, until fifteen persona requests were (five turns, each
    # tried three times by the SDK): counted in requests, not seconds, so however fast or loaded the
    # machine, the run waits five times (50, 100, 200, 400, 800 ms here; 2 to 32 s in production).
    settings.FAULTLINE_MODEL_FIRST_WAIT_SECONDS = 0.05
    healthy = api.responder
    storm = {"refused": 0}
    lock = threading.Lock()

    def storm_after_four_turns(body, call):
        with lock:
            if script.calls.get("persona", 0) >= 4 and storm["refused"] < 15:
                storm["refused"] += call.role == "persona"
                return Reply.overloaded()
        return healthy(body, call)

    api.responder = storm_after_four_turns
    debate = new_debate(max_turns=3)

    debate = debate_run(debate_id=debate.id)

    assert storm["refused"] == 15, "the storm never ended"
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    waits = list(
        Event.objects.filter(debate=debate, kind="model_waiting").order_by("seq").values_list("payload", flat=True)
    )
    assert len(waits) >= 3 and "overloaded" in waits[0]["reason"]
    assert [w["retry_in"] for w in waits] == sorted(w["retry_in"] for w in waits)  # growing backoff
    assert Message.objects.filter(debate=debate, room__isnull=True, status="complete").count() == 3 + 3 + 3
    # Ledger updates the storm cut off were put off, not skipped: every message is in the ledger.
    complete = Message.objects.filter(debate=debate, status="complete").count()
    assert BlackboardNotes.objects.get(debate=debate).messages_ledgered == complete
    assert_one_clean_finish(debate)


def test_an_outage_longer_than_the_limit_fails_the_debate_with_a_reason_and_it_resumes(
    scripted_api, new_debate, settings
):
    api, script = scripted_api(dispute="none")
    settings.FAULTLINE_MODEL_FIRST_WAIT_SECONDS = 0.5
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 1.75  # waits of 0.5 and 1 s, then it gives up
    healthy = api.responder
    api.responder = lambda body, call: (
        Reply.overloaded() if script.calls.get("persona", 0) >= 2 else healthy(body, call)
    )
    debate = new_debate(max_turns=3)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    assert "stayed unavailable for 2 s" in debate.failure_reason and "529" in debate.failure_reason
    assert Event.objects.filter(debate=debate, kind="model_waiting").count() == 2
    assert debate_can_resume(debate=debate)
    api.responder = healthy
    assert debate_run(debate_id=debate.id).status == Debate.Status.COMPLETED
    assert_one_clean_finish(debate)


def test_an_unexpected_exception_fails_the_debate_with_an_event(scripted_api, new_debate, monkeypatch):
    scripted_api(dispute="none")

    def broken_turn_taking(**kwargs):
        raise KeyError("a bug in turn-taking")

    monkeypatch.setattr(discussion, "choose_speaker", broken_turn_taking)
    debate = new_debate(max_turns=3)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED
    assert "internal error" in debate.failure_reason and "KeyError" in debate.failure_reason
    failed = Event.objects.filter(debate=debate, kind="debate_failed")
    assert failed.count() == 1 and failed.get().payload["reason"] == debate.failure_reason
    assert not debate_is_being_run(debate_id=debate.id)


def test_no_side_thread_outlives_a_failed_run(scripted_api, new_debate, monkeypatch):
    scripted_api(dispute="persistent", surface_after=None)
    real = discussion.choose_speaker

    def fail_once_a_room_talks(**kwargs):
        # Once a room is open, the main channel waits for its first message and then fails, however
        # the two channels' turns happen to interleave on the machine.
        if CruxRoom.objects.exists():
            deadline = time.monotonic() + 60
            while not Message.objects.filter(room__isnull=False).exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            raise RuntimeError("the main channel fails while a crux room talks")
        return real(**kwargs)

    monkeypatch.setattr(discussion, "choose_speaker", fail_once_a_room_talks)
    debate = new_debate(max_turns=24)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.FAILED and "RuntimeError" in debate.failure_reason
    assert Message.objects.filter(debate=debate, room__isnull=False).exists()
    # Lane threads are named after their lane and debate (ledger-<id>_0, rooms-<id>_1, ...).
    left = [t.name for t in threading.enumerate() if str(debate.id) in t.name and t.is_alive()]
    assert left == [], f"threads outlived the run: {left}"
    last_seq = Debate.objects.get(pk=debate.pk).last_seq
    time.sleep(1.0)
    assert Debate.objects.get(pk=debate.pk).last_seq == last_seq, "something wrote after the run ended"


SIDE_CALLS = ("LedgerDigest", "WindowDigest")  # the ledger digests, and the windows' (ledger and scan)


def test_side_calls_cut_off_by_a_short_outage_the_main_channel_never_saw_are_folded_in_the_same_run(
    scripted_api, new_debate, settings, caplog
):
    # 529s for ledger digests only (past the SDK's retries: they come 5 ms apart), from the fifth
    # persona turn to the seventh (counted in turns, not seconds: the closings must come after it,
    # however fast the turns run) and for the first detection window's digest: the personas never
    # see the outage, so the run never waits for the model.
    api, script = scripted_api(dispute="persistent", latency=0.05)
    settings.FAULTLINE_MODEL_WAIT_SECONDS = 60
    healthy = api.responder
    failed = {title: 0 for title in SIDE_CALLS}
    lock = threading.Lock()

    def side_calls_fail_for_a_moment(body, call):
        title = ((body.get("output_config") or {}).get("format") or {}).get("schema", {}).get("title", "")
        with lock:
            first_scan = title == "WindowDigest" and failed[title] < 3
            if title in SIDE_CALLS and (first_scan or 5 <= script.calls.get("persona", 0) < 7):
                failed[title] += 1
                return Reply.overloaded()
        return healthy(body, call)

    api.responder = side_calls_fail_for_a_moment
    debate = new_debate(max_turns=9)

    with caplog.at_level("INFO"):
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    assert failed["WindowDigest"] >= 3, failed
    assert "put off (the model is unavailable)" in caplog.text  # a window's digest was cut off
    assert not Event.objects.filter(debate=debate, kind__in=["model_waiting", "debate_resumed"]).exists()
    # Every message is in the ledger, folded once: one LedgerUpdated event for its speaker each.
    complete = Message.objects.filter(debate=debate, status="complete")
    assert not complete.filter(ledgered=False).exists()
    assert BlackboardNotes.objects.get(debate=debate).messages_ledgered == complete.count()
    # The cut-off detection window was scanned again, not skipped: every window done, the room open.
    dialogue = Message.objects.filter(debate=debate, room__isnull=True, kind__in=["key_argument", "reply"]).count()
    assert debate.detection_windows_done == dialogue // settings.CRUX_DETECTION_EVERY_MESSAGES
    # Healthy scans, one per window: in its digest, or on its own where an outage cut the digest off.
    assert script.calls["DisagreementScan"] == debate.detection_windows_done
    assert debate.crux_rooms.exists()
    assert_one_clean_finish(debate)
