"""Circling noticed from what was said (orchestration/circling.py), table-tested with exchanges
written as personas argue: restating in other words, progressing with new evidence, a concession
in the middle, agreement going round, too few turns."""

import pytest

from orchestration.circling import CIRCLING_TURNS, Said, circling_move, circling_reason

WINDOW = 6  # the exchanges below are six turns long; the run's window is CIRCLING_TURNS

ADA, BRAM = "Ada", "Bram"


def exchange(*lines, cited=()):
    return [Said(ADA if i % 2 == 0 else BRAM, text, cited=i in cited) for i, text in enumerate(lines)]


OPENINGS = exchange(
    "Gold protects savers over decades; the short run is noise.",
    "Real rates decide what gold does, not the history books.",
)
RESTATING = exchange(
    "Over decades gold protects savers, whatever a quarter says.",
    "No. Real rates decide it, and history does not.",
    "Savers are protected by gold over decades; the quarters are noise.",
    "Again: real rates decide this, not history. You keep ignoring that.",
    "The short run is noise; over decades gold protects savers.",
    "History is not the point. Real rates decide what gold does.",
)


def test_the_same_disagreement_restated_is_circling():
    reason = circling_reason(OPENINGS + RESTATING, fresh=len(RESTATING), window=WINDOW)
    assert reason is not None and "Ada and Bram" in reason and "no new evidence" in reason


@pytest.mark.parametrize(
    "replace_at, text",
    [
        (3, "A 2019 survey of central banks found gold reserves rising fastest where real rates were negative."),
        (4, "Since 1971 gold has returned 7.8% a year, which is more than the quarters suggest."),
        (2, "Fine, you're right that real rates matter in the short run; I still think decades decide."),
        (5, "What if we settled this by comparing the two over rolling twenty-year windows?"),
        (3, "I agree: savers over decades are what count here."),
    ],
)
def test_one_turn_with_new_evidence_a_concession_or_a_proposal_breaks_the_circle(replace_at, text):
    said = list(RESTATING)
    said[replace_at] = Said(said[replace_at].speaker, text)
    assert circling_reason(OPENINGS + said, fresh=len(said), window=WINDOW) is None


def test_a_cited_passage_is_new_evidence():
    said = exchange(*(s.text for s in RESTATING), cited={4})
    assert circling_reason(OPENINGS + said, fresh=len(said), window=WINDOW) is None


def test_a_debate_that_moves_on_is_not_circling():
    moving = exchange(
        "Gold held its value through the 1970s when bonds lost a third in real terms.",
        "That was an oil shock; after Volcker, real rates punished gold for twenty years.",
        "Yet central banks bought more gold in 2022 than in any year since 1967.",
        "Central bank buying is politics: sanctions made Russia and China diversify away from dollars.",
        "Then ask why retail demand in India rose too, with no sanctions in sight.",
        "Indian demand follows weddings and the harvest, a cultural pattern and not a monetary one.",
    )
    assert circling_reason(OPENINGS + moving, fresh=len(moving), window=WINDOW) is None


def test_agreement_going_round_is_not_a_disagreement_restated():
    polite = exchange(
        "Savers deserve protection over decades.",
        "Yes, savers deserve protection over decades.",
        "Protection for savers over decades matters.",
        "Savers and their protection over decades matter most.",
        "Over decades, protecting savers matters.",
        "Savers over decades, protection first.",
    )
    assert circling_reason(OPENINGS + polite, fresh=len(polite), window=WINDOW) is None


def test_too_few_turns_on_the_aspect_is_not_yet_a_circle():
    assert circling_reason(OPENINGS + RESTATING, fresh=WINDOW - 1, window=WINDOW) is None
    assert circling_reason(OPENINGS + RESTATING[:-1], fresh=5, window=WINDOW) is None
    # The run's own window is longer than a crux room needs to open (three detection windows).
    assert CIRCLING_TURNS >= 9
    assert circling_reason(OPENINGS + RESTATING, fresh=len(RESTATING)) is None
    assert circling_reason(OPENINGS + RESTATING + RESTATING[:3], fresh=9) is not None


def test_one_voice_repeating_itself_alone_is_not_a_circle_between_people():
    alone = [Said(ADA, s.text) for s in RESTATING]
    assert circling_reason(OPENINGS + alone, fresh=len(alone), window=WINDOW) is None


@pytest.mark.parametrize(
    "aspect_index, next_slot, expected",
    [
        (0, 7, ("next_aspect", 5)),  # aspect 0 holds slots 0-11: skip 7..11
        (1, 20, ("ended", 4)),  # the last aspect: the discussion ends, slots 20..23 given up
        (0, 12, None),  # the next aspect starts at this slot anyway
        (1, 24, None),  # the dialogue ends here anyway
    ],
)
def test_the_run_moves_on_while_there_is_an_aspect_left_and_ends_after(aspect_index, next_slot, expected):
    move = circling_move(aspect_index=aspect_index, aspects=2, next_slot=next_slot, per_aspect=12, total=24)
    assert (move and (move.action, move.slots_skipped)) == expected
