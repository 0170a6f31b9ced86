"""Proposals, reactions and decisions read from what was said (debates/blackboard/conversation.py).

The speech below was written as personas talk, not from the parser's patterns: paraphrases,
negations, hedges and decoys (agreement with a claim, reported speech, a hypothetical)."""

import pytest

from debates.blackboard.conversation import (
    ACCEPTED,
    ACTIVE,
    OPPOSE,
    REJECTED,
    SUPPORT,
    UNDETERMINED,
    proposal_in,
    proposals_fold,
    reaction_to,
)

ADA, BRAM, CLEO = "Ada Hardmoney", "Bram Macro", "Cleo Central"
EVERYONE = [ADA, BRAM, CLEO]
TRANCHE = {"id": 1, "by": BRAM, "proposal": "A gold-backed reserve tranche for the central bank.", "turn": 10}


@pytest.mark.parametrize(
    "text, proposal",
    [
        (
            "I propose a gold-backed reserve tranche for the central bank.",
            "A gold-backed reserve tranche for the central bank.",
        ),
        (
            "Fine. Here's a compromise: cap the tranche at five percent of reserves.",
            "Cap the tranche at five percent of reserves.",
        ),
        ("So what if we let savers hold indexed bonds instead?", "Let savers hold indexed bonds instead."),
        ("I'd suggest that we publish the reserve audit every quarter.", "We publish the reserve audit every quarter."),
        ("My proposal is to phase the standard in over ten years.", "Phase the standard in over ten years."),
        ("Why don't we start with a small pilot in one region?", "Start with a small pilot in one region."),
    ],
)
def test_a_proposal_is_read_in_its_own_words(text, proposal):
    assert proposal_in(text) == proposal


@pytest.mark.parametrize(
    "text",
    [
        "I suggest you reread the 1970s data before lecturing me.",  # a jab, not a proposal
        "I never proposed a full gold standard, so stop saying I did.",
        "If I suggested a tranche, you would call it a gimmick.",  # hypothetical
        "Bram proposes a tranche; it is a gimmick.",  # someone else's proposal, reported
        "I propose nothing.",  # too little to be one
        "Gold protects savers over decades, whatever the quarter says.",
    ],
)
def test_what_is_not_a_proposal(text):
    assert proposal_in(text) is None


@pytest.mark.parametrize(
    "text, turn, expected",
    [
        # Acceptance, paraphrased.
        ("I'm on board with Bram's tranche.", 14, SUPPORT),
        ("Count me in on the reserve tranche idea; it protects the central bank.", 14, SUPPORT),
        ("Agreed.", 11, SUPPORT),  # right after the proposal
        ("You have my vote for that plan.", 14, SUPPORT),
        ("I couldn't agree more with the proposal.", 14, SUPPORT),
        # Hedges are no acceptance.
        ("I agree with the proposal in principle, but the size worries me.", 14, UNDETERMINED),
        ("Maybe I could support the tranche if it were capped.", 14, UNDETERMINED),
        ("I'd accept the plan provided it is audited.", 14, UNDETERMINED),
        ("I support the plan. However, the timing is wrong.", 14, UNDETERMINED),
        ("Do I accept the proposal? Not sure yet.", 14, UNDETERMINED),
        # Refusals, negated acceptance among them.
        ("I don't accept the proposal.", 14, OPPOSE),
        ("I can't support a reserve tranche of gold; it pays nothing.", 14, OPPOSE),
        ("That plan won't work, and I reject it.", 14, OPPOSE),
        ("A gold tranche for the central bank is a non-starter.", 14, OPPOSE),
        ("I will never agree to that idea.", 14, OPPOSE),
        # Decoys: agreement with something else, reported speech, silence on the proposal.
        ("I agree that inflation erodes savings.", 14, None),
        ("Agreed.", 14, None),  # four turns later it answers whatever was said last, not the proposal
        ("Cleo accepts the tranche, apparently.", 14, None),
        ("Real rates decide this now, not history.", 14, None),
        ("You agree with me on the timing, right?", 14, None),
    ],
)
def test_a_reaction_is_read_from_the_speakers_own_words(text, turn, expected):
    assert reaction_to(text, TRANCHE, turn=turn) == expected


def fold(proposals, speaker, text, turn, **kw):
    return proposals_fold(proposals, speaker=speaker, text=text, turn=turn, participants=EVERYONE, **kw)


def test_a_decision_is_recorded_only_when_everyone_accepts():
    proposals, decided = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    assert [(p["by"], p["status"]) for p in proposals] == [(BRAM, ACTIVE)] and decided == []

    proposals, decided = fold(proposals, CLEO, "I'm on board with Bram's tranche.", 11)
    assert proposals[0]["reactions"] == {CLEO: SUPPORT}
    assert proposals[0]["status"] == ACTIVE and decided == []  # Ada has not said yes

    proposals, decided = fold(proposals, ADA, "I agree with the tranche in principle, but not at that size.", 12)
    assert proposals[0]["reactions"][ADA] == UNDETERMINED
    assert proposals[0]["status"] == ACTIVE and decided == []

    proposals, decided = fold(proposals, ADA, "Fine, a small reserve tranche: I accept it.", 13)
    assert proposals[0]["reactions"][ADA] == SUPPORT
    assert proposals[0]["status"] == ACCEPTED
    assert decided == ["A gold-backed reserve tranche for the central bank."]

    # Accepted is where it stays: a later grumble does not undo a decision that was reached.
    proposals, decided = fold(proposals, CLEO, "I now reject the tranche.", 14)
    assert proposals[0]["status"] == ACCEPTED and decided == []


def test_a_proposal_most_others_refuse_is_rejected_and_can_come_back():
    proposals, _ = fold([], ADA, "What if we returned to a full gold standard by 2030?", 3)
    proposals, _ = fold(proposals, BRAM, "A full gold standard is out of the question.", 4)
    assert proposals[0]["status"] == ACTIVE  # one of two others refused
    proposals, _ = fold(proposals, CLEO, "I don't accept a gold standard either.", 5)
    assert proposals[0]["status"] == REJECTED
    proposals, decided = fold(proposals, CLEO, "Actually, I now support a return to the gold standard.", 6)
    assert proposals[0]["status"] == ACTIVE and decided == []


def test_acceptance_of_a_claim_or_of_nobodys_proposal_decides_nothing():
    proposals, _ = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    for speaker, text, turn in [
        (CLEO, "I agree that inflation erodes savings.", 12),
        (ADA, "We all accept inflation erodes savings.", 13),
        (ADA, "Cleo is on board with the tranche, she says.", 14),
    ]:
        proposals, decided = fold(proposals, speaker, text, turn)
        assert decided == []
    assert proposals[0]["reactions"] == {} and proposals[0]["status"] == ACTIVE


def test_a_model_naming_the_proposal_chooses_it_but_never_the_reaction():
    proposals, _ = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    proposals, _ = fold(proposals, CLEO, "Let us talk about something else entirely.", 14, reacting_to=BRAM)
    assert proposals[0]["reactions"] == {}  # named, but no reaction in the words
    proposals, _ = fold(proposals, CLEO, "Sounds good to me.", 15, reacting_to=BRAM)
    assert proposals[0]["reactions"] == {CLEO: SUPPORT}


def test_a_proposer_cannot_accept_their_own_proposal_for_the_others():
    proposals, _ = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    proposals, decided = fold(proposals, BRAM, "I fully support my own proposal.", 11)
    assert proposals[0]["reactions"] == {} and decided == []
