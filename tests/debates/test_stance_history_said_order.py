"""The stance chart follows the order things were said, not the order the ledger folded them.

The ledger folds messages late, a window at a time, and a crux room's window is folded on its
own lane (six messages, and again at the room's end): a room statement is often folded several
main-channel messages after it was said, after newer statements of the same persona. Each case
is a log as the run writes it: messages said (their started and completed events), and folds
(LEDGER_UPDATED) where they were written. The expected series is one side per main-channel
message for Ada.
"""

from dataclasses import dataclass

import pytest

from debates.stance_history import stance_history

ADA, BRAM = 1, 2
ROOM, OTHER_ROOM = 40, 41


def said(message_id, by, room=None):
    """A message said and finished: in the main channel, or in a crux room."""
    return [
        ("message_started", {"message_id": message_id, "persona_id": by, "room_id": room}),
        ("message_completed", {"message_id": message_id, "text": "..."}),
    ]


def folded(message_id, persona, side, *, stated=None):
    """A ledger update written for ``persona`` after ``message_id`` was folded. ``side``: the
    ledger's current side then. ``stated``: the side the message itself gave, as the ledger now
    records it ("" none); None for the logs written before it did."""
    payload = {"persona_id": persona, "side": side, "message_id": message_id}
    if stated is not None:
        payload["side_said"] = stated
    return [("ledger_updated", payload)]


def landed(persona, side):
    """A ledger update from an old log: no message named, it counts from where it lands."""
    return [("ledger_updated", {"persona_id": persona, "side": side})]


@dataclass(frozen=True)
class Case:
    story: str
    log: list
    ada: list[str]  # Ada's side after each main-channel message


CASES = [
    Case(
        "Ada says NO in a room, then YES on the main channel; the main message is folded first, the "
        "room's window later (as logs were written so far): her last word is YES, with no invented move",
        [
            *said(1, BRAM), *said(2, BRAM),
            *said(100, ADA, ROOM),  # NO, in the room, after main step 2
            *said(3, BRAM),
            *said(4, ADA),  # YES
            *folded(4, ADA, "YES"),
            *said(5, BRAM),
            *folded(100, ADA, "NO"),  # the room's window, folded last
            *said(6, BRAM),
        ],
        ["", "", "NO", "YES", "YES", "YES"],
    ),
    Case(
        "the same, as the ledger now writes it: the room's update keeps the current side (YES, said "
        "later) and records that the room message said NO; the chart shows NO only until YES was said",
        [
            *said(1, BRAM), *said(2, BRAM),
            *said(100, ADA, ROOM),
            *said(3, BRAM),
            *said(4, ADA),
            *folded(4, ADA, "YES", stated="YES"),
            *said(5, BRAM),
            *folded(100, ADA, "YES", stated="NO"),
            *said(6, BRAM),
        ],
        ["", "", "NO", "YES", "YES", "YES"],
    ),
    Case(
        "a room statement said after her last main-channel one is her last word, from the step it was "
        "said at, not from the later step its fold was written at",
        [
            *said(1, ADA),  # YES
            *folded(1, ADA, "YES"),
            *said(2, BRAM),
            *said(100, ADA, ROOM),  # NO, after step 2
            *said(3, BRAM), *said(4, BRAM), *said(5, BRAM),
            *folded(100, ADA, "NO"),
            *said(6, BRAM),
        ],
        ["YES", "YES", "NO", "NO", "NO", "NO"],
    ),
    Case(
        "two rooms at once: the statement said later wins, although its room's fold was written first",
        [
            *said(1, BRAM),
            *said(100, ADA, ROOM),  # NUANCED
            *said(2, BRAM),
            *said(200, ADA, OTHER_ROOM),  # NO, said after the first room's
            *said(3, BRAM),
            *folded(200, ADA, "NO"),
            *said(4, BRAM),
            *folded(100, ADA, "NUANCED"),
            *said(5, BRAM),
        ],
        ["", "NUANCED", "NO", "NO", "NO"],
    ),
    Case(
        "an old log's update that names no message counts from where it lands, a room's included",
        [
            *said(1, ADA),
            *landed(ADA, "YES"),
            *said(2, BRAM),
            *said(100, ADA, ROOM),
            *said(3, BRAM),
            *landed(ADA, "NO"),  # written after step 3: counts from step 4
            *said(4, BRAM),
        ],
        ["", "YES", "YES", "NO"],
    ),
    Case(
        "a main-channel message folded late, with its window, counts from its own step",
        [
            *said(1, ADA), *said(2, BRAM), *said(3, ADA),
            *folded(1, ADA, "NO"), *folded(3, ADA, "YES"),
            *said(4, BRAM),
        ],
        ["NO", "NO", "YES", "YES"],
    ),
    Case(
        "same step: a room statement finished just before the main message that ends the step is "
        "overridden by that message at that step",
        [
            *said(1, BRAM),
            *said(100, ADA, ROOM),  # NO
            *said(2, ADA),  # YES, the same step
            *folded(2, ADA, "YES"),
            *said(3, BRAM),
            *folded(100, ADA, "NO"),
            *said(4, BRAM),
        ],
        ["", "YES", "YES", "YES"],
    ),
    Case(
        "same step: a room statement finished just after her main message is the side from the next step on",
        [
            *said(1, BRAM),
            *said(2, ADA),  # YES
            *said(100, ADA, ROOM),  # NO, after step 2
            *folded(100, ADA, "NO"),  # the room is quick this time: folded before the main window
            *said(3, BRAM),
            *folded(2, ADA, "YES"),
            *said(4, BRAM),
        ],
        ["", "YES", "NO", "NO"],
    ),
    Case(
        "a challenge Bram raised in the room is written into Ada's ledger when his message is folded: "
        "that update carries her side as it is at writing, which she said later, so it moves nothing",
        [
            *said(1, ADA),
            *folded(1, ADA, "NO"),
            *said(100, BRAM, ROOM),  # challenges Ada
            *said(2, BRAM),
            *said(3, ADA),  # NUANCED
            *folded(3, ADA, "NUANCED"),
            *said(4, ADA),  # YES
            *folded(4, ADA, "YES"),
            *folded(100, ADA, "YES"),  # Ada's ledger, after Bram's room message
            *folded(100, BRAM, "NO"),
            *said(5, BRAM),
        ],
        ["NO", "NO", "NUANCED", "YES", "YES"],
    ),
    Case(
        "a room message that states no side, folded late, leaves the side she said last standing",
        [
            *said(1, ADA),
            *folded(1, ADA, "NO", stated="NO"),
            *said(100, ADA, ROOM),  # no side stated
            *said(2, ADA),  # YES
            *folded(2, ADA, "YES", stated="YES"),
            *said(3, BRAM),
            *folded(100, ADA, "YES", stated=""),
            *said(4, BRAM),
        ],
        ["NO", "YES", "YES", "YES"],
    ),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[case.story[:60] for case in CASES])
def test_the_chart_follows_the_order_things_were_said(case):
    steps = stance_history(case.log, [ADA, BRAM])

    assert [step[ADA] for step in steps] == case.ada, case.story
