"""A ledger update names participants by the ids it was shown (``[persona-id] Name`` lines), and
the ledger stores only who takes part (debates/blackboard/updates.py, gateways/llm/references.py):
an id or an exact name lands on that participant, a name read loosely too; an unknown id, a
misspelled name or a word taken for a speaker ("Shoul d", "Trade r", "Do") lands on nobody."""

import pytest

from debates.blackboard import updates
from debates.blackboard.schemas import MessageUpdate, PositionUpdate
from gateways.llm.references import Participants

TRADER, ECONOMIST, OWNER = 1, 2, 3
SEATS = Participants.of(
    [
        (TRADER, "macro-trader", "Macro Trader"),
        (ECONOMIST, "development-economist", "Development Economist"),
        (OWNER, "main-street-owner", "Main Street Owner"),
    ]
)


def apply(**update):
    return updates.apply_update(
        state={},
        update=PositionUpdate.model_validate(update),
        speaker_id=TRADER,
        participants=SEATS,
        aspect_index=0,
        round_number=1,
    )


@pytest.mark.parametrize(
    "to, lands_on",
    [
        ("main-street-owner", OWNER),  # the id its line gave
        ("[development-economist]", ECONOMIST),
        ("Main Street Owner", OWNER),  # the exact name, as a fallback
        ("the main street owner", OWNER),
        ("Trade r", None),  # a ghost: half a name
        ("Shoul d", None),  # the first word of a sentence
        ("Do", None),
        ("Main Stret Owner", None),  # misspelled
        ("street-owner", None),  # an id nobody was given
        ("macro-trader", None),  # the speaker, challenging themselves
    ],
)
def test_a_challenge_lands_on_the_participant_it_names_and_on_nobody_else(to, lands_on):
    change = apply(challenges_raised=[{"to": to, "challenge": "Show the match-day takings net of the rest of town."}])
    assert change.challenges_for == (
        {lands_on: ["Show the match-day takings net of the rest of town."]} if lands_on else {}
    )


@pytest.mark.parametrize(
    "other, kept",
    [
        ("development-economist", ECONOMIST),
        ("Development Economist", ECONOMIST),
        ("Shoul d", None),
        ("Trade r", None),
        ("Economist", None),
        ("dev-economist", None),
    ],
)
def test_agreements_and_disagreements_keep_only_participants(other, kept):
    change = apply(
        new_agreement={"with": other, "on": "subsidised stadiums do not raise local incomes"},
        new_disagreement={"with": other, "on": "who should carry the bond", "intensity": "strong"},
    )
    agreed = [item["with"] for item in change.speaker["agreements"]]
    disagreed = [item["with"] for item in change.speaker["disagreements"]]
    assert agreed == disagreed == ([kept] if kept else [])
    assert change.epistemic_score == (3 if kept else 0)


def _update(turn, speaker):
    return MessageUpdate.model_validate({"turn": turn, "speaker": speaker, "overall_stance": "No public money."})


@pytest.mark.parametrize(
    "speaker, folded",
    [
        ("macro-trader", True),  # the id of the turn's speaker
        ("Macro Trader", True),
        ("macro trader", True),
        ("Trade r", False),  # a ghost for the right speaker is still nobody
        ("development-economist", False),  # somebody else: words in the wrong mouth
        ("Development Economist", False),
        ("ghost-7", False),
    ],
)
def test_a_digests_update_is_folded_only_for_the_speaker_of_its_turn(speaker, folded):
    found = updates.updates_by_turn([_update(4, speaker)], {4: TRADER}, SEATS)
    assert (found[4] is not None) == folded
