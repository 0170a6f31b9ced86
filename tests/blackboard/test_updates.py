"""How one extraction changes the ledger (pure): untrusted names dropped, nothing doubled,
concessions never dropped, only the speaker's own challenges answered."""

import pytest

from debates.blackboard import updates
from debates.blackboard.schemas import PositionUpdate
from debates.budget import Section, clip, estimate_tokens, join
from gateways.llm.references import Participants

ADA, BRAM, CLEO = 1, 2, 3
PARTICIPANTS = Participants.of([(ADA, "ada-id", "Ada"), (BRAM, "bram-id", "Bram"), (CLEO, "cleo-id", "Cleo")])


def apply(state, said_at=None, **update):
    return updates.apply_update(
        state=state,
        update=PositionUpdate.model_validate(update),
        speaker_id=ADA,
        participants=PARTICIPANTS,
        aspect_index=0,
        round_number=1,
        said_at=said_at,
    )


def test_evidence_and_challenges_land_on_the_right_people():
    change = apply(
        {},
        overall_stance="Gold wins.",
        evidence=["1970s data", "1970s data"],
        challenges_raised=[
            {"to": "Bram", "challenge": "Why now?"},
            {"to": "Nobody", "challenge": "x"},
            {"to": "Ada", "challenge": "talking to myself"},
        ],
    )
    assert change.speaker["overall_stance"] == "Gold wins."
    assert change.speaker["aspect_positions"]["0"]["evidence"] == ["1970s data"]
    assert change.challenges_for == {BRAM: ["Why now?"]}


def test_answering_removes_only_the_challenges_named():
    state = updates.add_challenges(updates.empty_state(), ["Why now?", "Show the data"], 0)
    change = apply(state, challenges_answered=["why now?", "something never asked"])
    assert change.speaker["aspect_positions"]["0"]["challenged"] == ["Show the data"]


def test_concessions_are_kept_forever_and_scored_once():
    state = updates.empty_state()
    for index in range(updates.MAX_ITEMS + 4):
        change = apply(state, concession=f"point {index}")
        state = change.speaker
    assert len(state["concessions"]) == updates.MAX_ITEMS + 4
    again = apply(state, concession="POINT 0")
    assert len(again.speaker["concessions"]) == updates.MAX_ITEMS + 4 and again.epistemic_score == 0


def test_epistemic_score_weights_disagreements_concessions_and_shifts():
    change = apply(
        {},
        new_disagreement={"with": "Cleo", "on": "rates", "intensity": "strong"},
        concession="timing",
        shift="softer on gold",
    )
    assert change.epistemic_score == 3 + 4 + 5
    assert change.speaker["disagreements"] == [{"with": CLEO, "on": "rates", "intensity": "strong"}]
    assert (
        apply(change.speaker, new_disagreement={"with": "Cleo", "on": "Rates", "intensity": "mild"}).epistemic_score
        == 0
    )


def test_a_relation_with_a_stranger_or_oneself_is_dropped():
    change = apply(
        {}, new_agreement={"with": "Zed", "on": "x"}, new_disagreement={"with": "Ada", "on": "y", "intensity": "mild"}
    )
    assert change.speaker["agreements"] == [] and change.speaker["disagreements"] == []


def test_sections_stop_at_their_budget_and_clip_long_lines():
    section = Section("RECENT", 30)
    assert section.add("x" * 400, max_line_tokens=20)
    assert estimate_tokens(section.lines[0]) <= 20 and section.lines[0].endswith("…")
    while section.add("another line of text"):
        pass
    assert section.used <= 30
    assert clip("short", 10) == "short"
    assert join([Section("EMPTY", 10), section]).startswith("── RECENT ──")


def test_an_out_of_range_importance_is_clamped_not_a_reason_to_drop_the_update():
    # The offline model rates 12 or "high": the stance it rode on must still reach the ledger.
    for given, kept in ((12, 10), (0, 1), ("7", 7), ("high", 5), (None, 5)):
        update = PositionUpdate.model_validate({"overall_stance": "Gold is insurance.", "importance": given})
        assert (update.overall_stance, update.importance) == ("Gold is insurance.", kept)
    schema = PositionUpdate.model_json_schema()["properties"]["importance"]
    assert (schema["minimum"], schema["maximum"]) == (1, 10)  # what the model is told is unchanged


# (held side, where its statement finished in the log; the message's side, where it finished) ->
# the side held after the fold, and where its statement finished.
SIDE_ORDER = [
    ("a message said after the statement held replaces it", ("NO", 10), ("YES", 14), ("YES", 14)),
    ("a room message said before, folded late, leaves the newer one standing", ("YES", 14), ("NO", 10), ("YES", 14)),
    ("a message that gives no side changes nothing, wherever it was said", ("YES", 14), (None, 20), ("YES", 14)),
    ("nothing held yet: the first side said is taken", ("", None), ("NUANCED", 3), ("NUANCED", 3)),
    (
        "held from an older debate (place unknown): the side folded now replaces it",
        ("NO", None),
        ("YES", 8),
        ("YES", 8),
    ),
    ("the message's place unknown: folded in order, as before", ("NO", 10), ("YES", None), ("YES", None)),
]


@pytest.mark.parametrize("story, held, said, after", SIDE_ORDER, ids=[case[0][:50] for case in SIDE_ORDER])
def test_the_side_held_is_the_one_said_last_not_the_one_folded_last(story, held, said, after):
    state = {**updates.empty_state(), "topic_side": held[0], "topic_side_seq": held[1]}

    change = apply(state, said_at=said[1], topic_side=said[0])

    assert (change.speaker["topic_side"], change.speaker["topic_side_seq"]) == after, story


def test_the_stance_held_is_the_one_said_last_too_apart_from_the_side():
    state = {**updates.empty_state(), "overall_stance": "Gold holds.", "overall_stance_seq": 14}

    older = apply(state, said_at=10, overall_stance="Gold is a relic.", topic_side="NO")  # a room's, folded late
    newer = apply(state, said_at=16, overall_stance="Gold holds, for now.")

    assert (older.speaker["overall_stance"], older.speaker["overall_stance_seq"]) == ("Gold holds.", 14)
    assert (older.speaker["topic_side"], older.speaker["topic_side_seq"]) == ("NO", 10)  # no side was held
    assert (newer.speaker["overall_stance"], newer.speaker["overall_stance_seq"]) == ("Gold holds, for now.", 16)


def test_the_position_on_an_aspect_is_the_one_said_last_and_its_evidence_is_kept_either_way():
    held = apply(updates.empty_state(), said_at=14, aspect_position="Gold tracks real rates.")

    older = apply(
        held.speaker, said_at=10, aspect_position="Gold is pure sentiment.", evidence=["1980s real rates"]
    )  # a crux room's statement, folded after the newer one
    newer = apply(held.speaker, said_at=16, aspect_position="Gold tracks real rates, mostly.")
    unknown = apply(held.speaker, said_at=None, aspect_position="Gold is a hedge.")  # folded in order

    assert older.speaker["aspect_positions"]["0"]["position"] == "Gold tracks real rates."
    assert older.speaker["aspect_positions"]["0"]["evidence"] == ["1980s real rates"]  # what was cited stays cited
    assert newer.speaker["aspect_positions"]["0"]["position"] == "Gold tracks real rates, mostly."
    assert unknown.speaker["aspect_positions"]["0"]["position"] == "Gold is a hedge."
