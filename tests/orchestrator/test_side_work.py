"""What the next speaker waits for: the main channel's ledger (lagging by one), never a crux
room's ledger updates, and the closings wait once for the whole ledger."""

import threading

import pytest

from debates.models import Message
from orchestration import ledger_folding
from orchestration.loop import DebateRun
from orchestration.modes.dialogue.mode import DialogueMode

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_speaker_never_queues_behind_a_crux_rooms_ledger_updates(new_debate, monkeypatch):
    debate = new_debate()
    room_may_finish = threading.Event()
    folded = []

    def slow_for_rooms(*, messages, names, **_):
        if messages[0].id < 0:  # the room's messages below
            room_may_finish.wait(10)
        folded.extend(message.id for message in messages)
        return True

    monkeypatch.setattr(ledger_folding, "ledger_digest", slow_for_rooms)
    run = DebateRun(debate, DialogueMode)
    try:
        run.ledger.fold(Message(id=-1, debate=debate, room_id=1, turn=1))
        run.ledger.fold(Message(id=-2, debate=debate, room_id=1, turn=2))
        run.ledger.flush(1)  # the room ended
        for turn in range(1, 7):  # two digests' worth of the main channel
            run.ledger.fold(Message(id=turn, debate=debate, turn=turn))

        run.ledger.wait(lag=1)
        # The room's digest is held back until released: had the speaker queued behind it, it
        # would be folded by now (after the hold times out), before the speaker's.
        assert {1, 2, 3} <= set(folded) and -1 not in folded, "the speaker waited for the room"

        run.ledger.fold(Message(id=7, debate=debate, turn=7))  # gathered, not folded yet
        waiter = threading.Thread(target=run.ledger.wait, kwargs={"lag": 0, "rooms": True})
        waiter.start()
        waiter.join(0.3)
        assert waiter.is_alive(), "the closings must wait for the rooms' updates too"
        room_may_finish.set()
        waiter.join(5)
        assert not waiter.is_alive() and set(folded) == {-1, -2, 1, 2, 3, 4, 5, 6, 7}
    finally:
        room_may_finish.set()
        run.lanes.shutdown()
