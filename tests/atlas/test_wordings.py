"""A crux is listed once: its other wordings are those that say it otherwise than its heading."""

from atlas.recurrence import Appearance, crux_record
from atlas.selectors import AtlasCrux


def appearance(card_id: int, question: str) -> Appearance:
    return Appearance(card_id, f"debate-{card_id}", "Gold?", question, {"Ada": "YES", "Bram": "NO"}, False)


def test_a_wording_that_differs_only_by_its_framing_case_or_question_mark_is_not_listed_again():
    record = crux_record(
        [
            appearance(1, "Whether gold is a hedge (disputed)"),
            appearance(2, "Is gold a hedge?"),
            appearance(3, "is gold a hedge"),
            appearance(4, "Does gold protect savers against inflation?"),
        ]
    )
    crux = AtlasCrux(key="crux-1", record=record, debates=[])

    assert record.question == "Whether gold is a hedge (disputed)"  # the heading: the first card's words
    assert crux.other_wordings == ["Is gold a hedge?", "Does gold protect savers against inflation?"]
