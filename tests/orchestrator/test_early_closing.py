"""The first closing is asked while the last detection window is scanned: its reply is held back
until the scan is done, shown if no crux room or dispute came up meanwhile, and asked for again
(with the new room's card) if one did."""

import dataclasses
import json
import time

import pytest

from crux.models import CruxCard, CruxRoom
from debates.models import Debate, Event, Message
from gateways.llm.models import ModelCall
from gateways.llm.selectors import debate_spend
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)

SCAN_SECONDS = 0.6


def recorded(api, scan_seconds):
    """Record every request's arrival: (time, what it is, its user text); a disagreement scan
    answers after ``scan_seconds``."""
    scripted, requests = api.responder, []

    def recording(body, call):
        title = ((body.get("output_config") or {}).get("format") or {}).get("schema", {}).get("title", "")
        user = json.dumps(body.get("messages", []))
        kind = title or ("closing" if call.phase == "closing" else "persona")
        requests.append((time.time(), kind, user))
        reply = scripted(body, call)
        return dataclasses.replace(reply, latency=scan_seconds) if title == "WindowDigest" else reply

    api.responder = recording
    return requests


def test_the_first_closing_is_asked_while_the_last_window_is_scanned_and_shown_after_it(scripted_api, new_debate):
    api, _ = scripted_api(dispute="none", latency=0.05)
    requests = recorded(api, SCAN_SECONDS)
    debate = new_debate(max_turns=6)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    last_scan = max(at for at, kind, _ in requests if kind == "WindowDigest")
    closings = [at for at, kind, _ in requests if kind == "closing"]
    assert len(closings) == 3  # nothing came up: the held reply was kept, not asked for again
    assert closings[0] < last_scan + SCAN_SECONDS / 2, "the first closing waited for the last scan"
    # Nothing of it was shown before the scan answered, and the closing phase is announced before it.
    said = list(Message.objects.filter(debate=debate, room__isnull=True, kind=Message.Kind.CLOSING).order_by("turn"))
    assert len(said) == 3 and all(m.status == Message.Status.COMPLETE for m in said)
    started = Event.objects.get(debate=debate, kind="message_started", payload__message_id=said[0].id)
    phase = Event.objects.get(debate=debate, kind="phase_changed", payload__phase="closing")
    assert phase.seq < started.seq
    assert started.created_at.timestamp() >= last_scan + SCAN_SECONDS - 0.01, "shown before the scan answered"
    events = list(Event.objects.filter(debate=debate).order_by("seq").values_list("seq", flat=True))
    assert events == list(range(1, len(events) + 1))
    assert ModelCall.objects.filter(debate=debate, phase="closing").count() == 3


def test_a_room_opened_by_the_last_window_drops_the_held_closing_and_asks_again_with_its_card(scripted_api, new_debate):
    # Three windows in a row open a room: the third is the last, scanned beside the first closing.
    api, _ = scripted_api(dispute="persistent", latency=0.05)
    requests = recorded(api, 0.3)
    debate = new_debate(max_turns=9)

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    room = CruxRoom.objects.get(debate=debate)
    card = CruxCard.objects.get(debate=debate, room=room)
    closings = [user for _, kind, user in requests if kind == "closing"]
    assert len(closings) == 4  # the first was asked twice
    assert "Crux found" not in closings[0]  # the held one, asked before the room opened: dropped
    assert all("Crux found" in user for user in closings[1:]), "a closing went out without the room's card"
    # Shown once each, after the card; the dropped call is in the spend ledger all the same.
    said = list(Message.objects.filter(debate=debate, room__isnull=True, kind=Message.Kind.CLOSING).order_by("turn"))
    assert len(said) == 3 and len({m.persona_id for m in said}) == 3
    posted = Event.objects.get(debate=debate, kind="card_posted")
    first = Event.objects.get(debate=debate, kind="message_started", payload__message_id=said[0].id)
    assert posted.seq < first.seq and card.room_id == room.id
    assert ModelCall.objects.filter(debate=debate, phase="closing").count() == 4
    finished = Event.objects.get(debate=debate, kind="debate_finished")
    assert finished.payload["totals"]["output_tokens"] == debate_spend(debate_id=debate.id)["output_tokens"] > 0
