"""What a structured answer refers to, checked (gateways/llm/references.py): a participant by the id
its item line gave it, by its exact name as a fallback, by its name read loosely (case, spacing,
accents, quotes, a leading "The") as the last; anything else is nobody, and is logged. The answers
below are what careless but honest readers write back: ids in brackets or not, names misspelled,
words of a sentence taken for a speaker."""

import logging

import pytest

from gateways.llm.references import Participants, item_id, normalised

SEATS = Participants.of(
    [
        (11, "macro-trader", "Macro Trader"),
        (12, "development-economist", "Development Economist"),
        (13, "main-street-owner", "Main Street Owner"),
        (14, "zoe-lefevre", "Zoë Lefèvre"),
    ]
)


@pytest.mark.parametrize(
    "answer, key",
    [
        # By id, as the item line gives it, with its brackets, or in another case.
        ("macro-trader", 11),
        ("[development-economist]", 12),
        ("Main-Street-Owner", 13),
        # By name: exact, then read loosely.
        ("Macro Trader", 11),
        ("macro trader", 11),
        ("  Development   Economist ", 12),
        ("The Main Street Owner", 13),
        ('"Macro Trader"', 11),
        ("Macro Trader (you)", 11),
        ("Zoe Lefevre", 14),
        ("ZOË LEFÈVRE:", 14),
    ],
)
def test_a_participant_is_found_by_id_then_by_name(answer, key):
    assert SEATS.key(answer) == key


@pytest.mark.parametrize(
    "answer",
    [
        "Trade r",  # a name cut in two
        "Shoul d",  # the first word of a sentence taken for its speaker
        "Do",
        "Macro",  # half a name
        "Trader",
        "Macro Trader's",
        "Development Economists",  # misspelled
        "Main Stret Owner",
        "macro_trader",  # an id nobody was given
        "x3",
        "12",  # a persona's pk is no id a call was shown
        "",
        None,
        "Everyone",
    ],
)
def test_anything_else_names_nobody_and_is_logged(answer, caplog):
    with caplog.at_level(logging.INFO, logger="gateways.llm.references"):
        assert SEATS.key(answer, what="The evidence ledger") is None
        assert SEATS.name(answer) is None
    if answer:
        assert any("not a participant" in record.getMessage() for record in caplog.records)


def test_two_participants_whose_names_read_alike_are_both_refused_by_the_loose_reading():
    alike = Participants.of([(1, "ana-1", "Ana Ruiz"), (2, "ana-2", "ana ruiz")])
    assert alike.key("ANA RUIZ") is None
    assert alike.key("Ana Ruiz") == 1 and alike.key("ana ruiz") == 2  # exact names still decide
    assert alike.key("ana-2") == 2


def test_the_name_given_back_is_the_participants_own():
    assert SEATS.name("the macro trader") == "Macro Trader"
    assert SEATS.name("zoe-lefevre") == "Zoë Lefèvre"
    assert SEATS.names[13] == "Main Street Owner" and SEATS.handle(13) == "main-street-owner"


@pytest.mark.parametrize(
    "answer, found",
    [("X3", "X3"), ("[X3]", "X3"), ("x3", "X3"), (" X1 ", "X1"), ("X9", None), ("3", None), ("", None), (None, None)],
)
def test_an_item_is_one_of_the_ids_the_call_was_shown(answer, found):
    assert item_id(answer, ["X1", "X3"]) == found


def test_normalised_sets_aside_only_what_does_not_make_a_name():
    assert normalised("  The  Main Street Owner (you) ") == "main street owner"
    assert normalised("Trade r") == "trade r" != normalised("Trader")
