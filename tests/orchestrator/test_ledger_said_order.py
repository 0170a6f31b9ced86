"""The position ledger's current side is the one its persona said last, not the one folded last.

A crux room's messages are folded on their own lane, six at a time and at the room's end, so a
room statement is often folded after a newer main-channel statement of the same persona has
been. The stored side (what the regime, the final sides and the closings read) and the stance
chart must both keep the newer statement. Messages are said through the real services (their
events in the log), and folded by real digests whose answers the fake Messages API gives in the
order the digests are called.
"""

import pytest

from crux.models import CruxRoom
from debates.blackboard.ledger import ledger_digest
from debates.blackboard.models import PositionState
from debates.models import Message
from debates.services.messages import message_say
from devtools.fake_messages_api import Reply
from orchestration.results import final_sides, stance_series

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def debate(new_debate):
    return new_debate()


@pytest.fixture
def room(debate):
    ada, bram = (p.persona for p in debate.participants.order_by("seat")[:2])
    return CruxRoom.objects.create(debate=debate, persona_a=ada, persona_b=bram, question="Does gold hold?", suit="♠")


def _say(debate, seat, turn, text, room=None):
    participant = debate.participants.select_related("persona").get(seat=seat)
    kind = Message.Kind.ENTRY if room else Message.Kind.REPLY
    message = Message(debate=debate, room=room, persona=participant.persona, kind=kind, turn=turn, text=text)
    message_say(message=message, seat=seat)
    return message


def _digest(*sides):
    """The digest's answer: for each (message, side) one update, keyed by turn and speaker, with
    the stance that side makes (none without a side)."""
    return Reply.json(
        {
            "updates": [
                {
                    "turn": m.turn,
                    "speaker": m.persona.name,
                    "topic_side": side,
                    "overall_stance": side and f"Answers {side}.",
                }
                for m, side in sides
            ]
        }
    )


def _fold(*messages):
    ids = [message.pk for message in messages]
    folded = Message.objects.select_related("debate", "persona").filter(pk__in=ids).order_by("turn")
    assert ledger_digest(messages=list(folded))


def _ada_side(debate):
    """Ada's stored side, as the final sides read it, and her stance."""
    ada = debate.participants.get(seat=0).persona
    state = PositionState.objects.get(debate=debate, persona=ada)
    return state.topic_side, final_sides(debate=debate)[ada.name], state.overall_stance


def _ada_chart(debate):
    return [step[0] for step in stance_series(debate=debate)["steps"]]


def test_a_room_statement_folded_after_a_newer_main_channel_one_does_not_replace_it(fake_anthropic, debate, room):
    first = _say(debate, 1, 1, "Gold is a relic.")
    in_room = _say(debate, 0, 1, "No: gold will not hold its value.", room=room)
    second = _say(debate, 1, 2, "Rates decide it.")
    newer = _say(debate, 0, 3, "Yes, on reflection gold holds its value.")
    fake_anthropic.script(
        _digest((first, None), (second, None), (newer, "YES")),  # the main channel's window
        _digest((in_room, "NO")),  # the room's window, folded last
    )

    _fold(first, second, newer)
    _fold(in_room)

    assert _ada_side(debate) == ("YES", "YES", "Answers YES.")
    assert _ada_chart(debate) == ["", "NO", "YES"]


def test_a_room_statement_said_after_the_main_channel_one_replaces_it_though_folded_first(fake_anthropic, debate, room):
    first = _say(debate, 1, 1, "Gold is a relic.")
    older = _say(debate, 0, 2, "Yes, gold holds its value.")
    in_room = _say(debate, 0, 1, "No, I was wrong: it does not.", room=room)
    third = _say(debate, 1, 3, "Rates decide it.")
    fake_anthropic.script(
        _digest((in_room, "NO")),  # the room is quick: its window is folded first
        _digest((first, None), (older, "YES"), (third, None)),
    )

    _fold(in_room)
    _fold(first, older, third)

    assert _ada_side(debate) == ("NO", "NO", "Answers NO.")
    assert _ada_chart(debate) == ["", "YES", "NO"]
