"""A digest's updates matched to the messages it was asked about (pure): the model's output is
untrusted, so an update lands on a message only if it names that message's turn and speaker."""

import pytest

from debates.blackboard import updates
from debates.blackboard.schemas import LedgerDigest
from gateways.llm.references import Participants

SEATS = Participants.of(
    [(1, "ada-hardmoney", "Ada Hardmoney"), (2, "bram-macro", "Bram Macro"), (3, "cleo-quant", "Cleo Quant")]
)
# The three messages a digest was asked about (turn -> who said it); the window's earlier
# messages (turns 4 to 6) were shown as context only.
ASKED = {7: 1, 8: 2, 9: 3}


def _update(turn, speaker, stance):
    return {"turn": turn, "speaker": speaker, "overall_stance": stance}


CASES = [
    (
        "each message answered, in order",
        [_update(7, "Ada Hardmoney", "a"), _update(8, "Bram Macro", "b"), _update(9, "Cleo Quant", "c")],
        {7: "a", 8: "b", 9: "c"},
    ),
    (
        "answered out of order",
        [_update(9, "Cleo Quant", "c"), _update(7, "Ada Hardmoney", "a"), _update(8, "Bram Macro", "b")],
        {7: "a", 8: "b", 9: "c"},
    ),
    (
        "an update for a context message (turn 5), not one asked about, is dropped",
        [_update(5, "Bram Macro", "old news"), _update(8, "Bram Macro", "b")],
        {7: None, 8: "b", 9: None},
    ),
    (
        "a turn past the window is dropped",
        [_update(10, "Ada Hardmoney", "made up"), _update(7, "Ada Hardmoney", "a")],
        {7: "a", 8: None, 9: None},
    ),
    (
        "someone who is not in the debate is not given the turn",
        [_update(9, "Dmitri Gold", "an intruder's view")],
        {7: None, 8: None, 9: None},
    ),
    (
        "Bram's words credited to Ada are not put in her mouth",
        [_update(8, "Ada Hardmoney", "what Bram said")],
        {7: None, 8: None, 9: None},
    ),
    (
        "a missing update leaves that message without one",
        [_update(7, "Ada Hardmoney", "a"), _update(9, "Cleo Quant", "c")],
        {7: "a", 8: None, 9: "c"},
    ),
    (
        "a turn answered twice keeps its first answer",
        [_update(7, "Ada Hardmoney", "first"), _update(7, "Ada Hardmoney", "second")],
        {7: "first", 8: None, 9: None},
    ),
    (
        "names are matched whatever their case and spacing",
        [_update(7, "  ada hardmoney ", "a"), _update(8, "BRAM MACRO", "b")],
        {7: "a", 8: "b", 9: None},
    ),
    (
        "speakers named by the ids the digest was shown",
        [_update(7, "ada-hardmoney", "a"), _update(8, "[bram-macro]", "b"), _update(9, "cleo", "c")],
        {7: "a", 8: "b", 9: None},
    ),
    ("nothing answered at all", [], {7: None, 8: None, 9: None}),
]


@pytest.mark.parametrize(("case", "given", "expected"), CASES, ids=[case for case, _, _ in CASES])
def test_a_digests_updates_land_only_on_the_messages_they_name(case, given, expected):
    digest = LedgerDigest.model_validate({"updates": given})

    matched = updates.updates_by_turn(digest.updates, ASKED, SEATS)

    assert {turn: (update.overall_stance if update else None) for turn, update in matched.items()} == expected


def test_a_digest_reads_what_a_speaker_holds_not_the_ledger_s_bookkeeping():
    from debates.blackboard.ledger import _state_shown
    from debates.blackboard.models import PositionState

    state = PositionState(
        persona_id=1,
        topic_side="NO",
        topic_side_seq=41,
        overall_stance="Gold protects savers only over decades.",
        overall_stance_seq=41,
        last_updated_round=3,
        aspect_positions={"Inflation": {"position": "Not month to month.", "position_seq": 41, "evidence": []}},
    )

    shown = _state_shown(state)

    assert shown["topic_side"] == "NO" and shown["overall_stance"].startswith("Gold protects")
    assert shown["aspect_positions"] == {"Inflation": {"position": "Not month to month."}}
    assert not {"topic_side_seq", "overall_stance_seq", "last_updated_round"} & set(shown)
