import pytest
from django.template.loader import render_to_string

from debates.stance_chart import stance_charts
from debates.stance_history import entropy, entropy_by_round, stance_history


def events(*items):
    return list(items)


def started(message_id, room_id=None):
    return ("message_started", {"message_id": message_id, "room_id": room_id})


def completed(message_id):
    return ("message_completed", {"message_id": message_id, "text": "..."})


def ledger(persona_id, side):
    return ("ledger_updated", {"persona_id": persona_id, "side": side})


def test_one_step_per_main_channel_message_with_the_last_recorded_sides():
    log = [
        started(1), completed(1), ledger(7, "NO"),
        started(2), completed(2), ledger(8, "YES"),
        started(3, room_id=5), completed(3), ledger(7, "YES"),  # a room message: no step, its side counts
        started(4), completed(4), ledger(8, ""),  # no side in this update: the last one stands
    ]  # fmt: skip

    assert stance_history(log, [7, 8]) == [{7: "", 8: ""}, {7: "NO", 8: ""}, {7: "YES", 8: "YES"}]


def test_an_update_naming_its_message_counts_from_that_message_however_late_it_lands():
    def folded(persona_id, side, message_id):
        return ("ledger_updated", {"persona_id": persona_id, "side": side, "message_id": message_id})

    log = [
        started(1), completed(1), started(2), completed(2), started(3), completed(3),
        # The window of three is folded after its third message: each update names its message.
        folded(7, "NO", 1), folded(8, "YES", 2), folded(7, "YES", 3),
        started(9, room_id=5), completed(9), folded(8, "NUANCED", 9),  # a room's: from where it lands
        started(4), completed(4),
    ]  # fmt: skip

    assert stance_history(log, [7, 8]) == [
        {7: "NO", 8: ""},
        {7: "NO", 8: "YES"},
        {7: "YES", 8: "YES"},
        {7: "YES", 8: "NUANCED"},
    ]


def test_entropy_is_zero_when_all_agree_one_bit_for_an_even_split_and_none_when_nothing_is_known():
    assert entropy(["YES", "YES"]) == 0.0
    assert entropy(["YES", "NO"]) == 1.0
    assert entropy(["YES", "NO", "NUANCED"]) == pytest.approx(1.585)
    assert entropy(["", ""]) is None
    steps = [{1: "", 2: ""}, {1: "YES", 2: ""}, {1: "YES", 2: "NO"}, {1: "YES", 2: "YES"}, {1: "YES", 2: "YES"}]
    assert entropy_by_round(steps, 2) == [0.0, 0.0, 0.0]
    assert entropy_by_round(steps[:3], 2) == [0.0, 1.0]


def test_a_chart_per_persona_with_a_gap_until_a_side_is_known_and_a_dot_where_it_moved():
    charts = stance_charts(
        {
            "personas": [{"id": 1, "name": "Fay", "seat": 0}, {"id": 2, "name": "Gus", "seat": 1}],
            "steps": [["", "YES"], ["NO", "YES"], ["NO", "YES"], ["YES", "YES"]],
        }
    )

    fay, gus = charts
    assert fay["final"] == "YES" and len(fay["changes"]) == 1 and fay["changes"][0]["step"] == 4
    assert len(fay["runs"]) == 1 and fay["runs"][0].count(",") == 4  # NO, NO, the step up, YES
    assert gus["final"] == "YES" and gus["changes"] == []
    assert stance_charts({"personas": "junk", "steps": [["YES"]]}) == [] and stance_charts(None) == []


def test_model_written_names_are_escaped_in_the_chart():
    hostile = '<script>window.__xss = 1</script><img src=x onerror="x()">'
    results = {"stances": {"personas": [{"id": 1, "name": hostile, "seat": 0}], "steps": [["YES"], ["NO"]]}}

    html = render_to_string("debates/partials/stance_charts.html", {"results": results})

    assert "<script>" not in html and "<img" not in html and "&lt;script&gt;" in html
    assert html.count("<svg") == 1
