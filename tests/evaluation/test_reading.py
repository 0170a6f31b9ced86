"""The truth suite's naive reader, on speech written for this table (not the suite's scenarios):
plain answers, paraphrase, negation, hedges and sarcasm. It is meant to be fallible; these are the
readings it must get right, and one it is known to get wrong (a decoy's trap)."""

import pytest

from orchestration.evaluation import reading

GOLD = "Is gold a better hedge than bonds?"
RATES = "Should central banks publish their rate forecasts?"


@pytest.mark.parametrize(
    "text, question, side",
    [
        ("Yes. Gold is the better hedge, full stop.", GOLD, "YES"),
        ("Gold is not a better hedge than bonds, whatever the seventies say.", GOLD, "NO"),
        ("I'd never call gold the better hedge.", GOLD, "NO"),
        ("Bonds are the better hedge for anyone who needs income.", GOLD, "NO"),  # the other side of the comparison
        ("Oh sure, gold is a marvellous hedge until you need to eat.", GOLD, "NO"),  # sarcasm
        ("Whether gold hedges better depends on real rates; it depends.", GOLD, "NUANCED"),
        ("No doubt about it: central banks should publish their rate forecasts.", RATES, "YES"),
        ("Publishing forecasts of rates is what a central bank ought to do.", RATES, "YES"),
        ("I had a sandwich for lunch and the train was late.", GOLD, None),  # changes the subject
        ("My answer is no.", RATES, "NO"),
    ],
)
def test_it_reads_which_way_a_turn_answers_the_question(text, question, side):
    assert reading.side_on(text, question) == side


@pytest.mark.parametrize(
    "sentence, verdict",
    [
        ("Point two holds up well.", "accept"),
        ("I can't disagree with that one.", "accept"),
        ("I don't agree with the first point at all.", "reject"),
        ("The first claim is overstated.", "reject"),
        ("Oh sure, fees never matter.", "reject"),
        ("The weather was mild in the eighties.", None),
    ],
)
def test_it_reads_whether_an_evaluation_accepts_or_rejects(sentence, verdict):
    assert reading.verdict(sentence) == verdict


def test_it_finds_the_points_an_evaluation_speaks_of():
    points = reading.numbered_points("1. Rents rise when supply is capped. 2. Zoning limits supply.")

    assert points == {1: "Rents rise when supply is capped", 2: "Zoning limits supply"}
    assert reading.point_referred("The second point stands.", points) == [2]
    assert reading.point_referred("Both points hold.", points) == [1, 2]
    assert reading.that_clause("I agree that zoning does not limit supply.") == "Zoning does not limit supply"


@pytest.mark.parametrize(
    "sentence, contradicts",
    [
        ("Lena, you're wrong about the year: it was 1989.", True),
        ("Lena, you're not wrong, and I'll say so.", False),
        ("I don't disagree with a word of that.", False),
        ("That is simply not true, Omar.", True),
    ],
)
def test_it_tells_a_contradiction_from_a_negated_one(sentence, contradicts):
    assert reading.contradiction(sentence) is contradicts


def test_a_quibble_about_a_date_reads_as_a_dispute_the_decoys_trap():
    sentence = "Lena, you're wrong about the year: the wall fell in 1989."

    assert reading.contradiction(sentence) and not reading.relevant(sentence, GOLD)
    assert reading.quibble_question(sentence) == "Is it true that the wall fell in 1989?"
