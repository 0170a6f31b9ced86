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


def test_a_model_citing_the_proposal_by_id_ties_the_reaction_and_its_reading_needs_the_words_consent():
    proposals, _ = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    # Cited by id, read as support, the words silent: the reading stands.
    proposals, _ = fold(
        proposals, CLEO, "Fine by the central bank's board, I imagine.", 14, reacting_to=1, read_as=SUPPORT
    )
    assert proposals[0]["reactions"] == {CLEO: SUPPORT}
    # Read as support, but the words hedge it or refuse it: nothing is claimed.
    proposals, _ = fold(
        proposals, ADA, "In principle yes, once we have seen the audit.", 15, reacting_to=1, read_as=SUPPORT
    )
    assert proposals[0]["reactions"][ADA] == UNDETERMINED
    proposals, _ = fold(proposals, ADA, "I won't sign up to that plan.", 16, reacting_to=1, read_as=SUPPORT)
    assert proposals[0]["reactions"][ADA] == UNDETERMINED
    # No reading given: the words alone decide, as before.
    proposals, _ = fold(proposals, ADA, "Let us talk about something else entirely.", 17, reacting_to=1)
    assert proposals[0]["reactions"][ADA] == UNDETERMINED  # unchanged: nothing said about it


# The on-call story (evaluation/corpus/truth/dialogue_oncall_proposal_in_other_words.toml): two
# proposals accepted in words that share none of theirs, beside a refusal of something else.
ELIF, MARCO, AISHA = "Elif Yilmaz", "Marco Bianchi", "Aisha Karimi"
TEAM = [ELIF, MARCO, AISHA]
ROTA = (
    "Here's my proposal: a weekly rotation across all eight engineers, with a standby allowance for the "
    "week you carry the pager, and swaps allowed."
)
ALERT = (
    "I suggest the fraud-score alert only pages when errors stay above threshold for ten minutes, and "
    "everything shorter goes to a daytime queue."
)


def team_fold(proposals, speaker, text, turn, **kw):
    return proposals_fold(proposals, speaker=speaker, text=text, turn=turn, participants=TEAM, **kw)


def test_acceptances_in_other_words_are_tied_to_the_proposal_by_its_id():
    proposals, _ = team_fold([], ELIF, ROTA, 4)
    proposals, decided = team_fold(
        proposals,
        MARCO,
        "Seven days at a time, with money for being reachable: I'm on board. One more thing: I don't accept "
        "that the pager is the whole problem, because half of last month's pages were the fraud-score alert "
        "firing on noise.",
        5,
        reacting_to=1,
        read_as=SUPPORT,
    )
    assert proposals[0]["reactions"] == {MARCO: SUPPORT} and decided == []
    proposals, decided = team_fold(
        proposals,
        AISHA,
        "Elif, yes to that, and finance has already set aside a stipend for whoever holds the phone.",
        6,
        reacting_to=1,
        read_as=SUPPORT,
    )
    assert proposals[0]["status"] == ACCEPTED and len(decided) == 1

    proposals, _ = team_fold(proposals, MARCO, ALERT, 7)
    proposals, decided = team_fold(
        proposals,
        ELIF,
        "Ten minutes sustained is what I'd have picked too. I'll make the change this week.",
        8,
        reacting_to=2,
        read_as=SUPPORT,
    )
    assert proposals[1]["reactions"] == {ELIF: SUPPORT} and decided == []
    proposals, decided = team_fold(
        proposals,
        AISHA,
        "Good: then both are settled, the weekly paid rota and the quieter alert.",
        9,
        reacting_to=2,
        read_as=SUPPORT,
    )
    assert [p["status"] for p in proposals] == [ACCEPTED, ACCEPTED] and len(decided) == 1


@pytest.mark.parametrize(
    "text, expected",
    [
        # A refusal of a clause of its own is about that clause, not the proposal on the table.
        (
            "I don't accept that the pager is the whole problem: half of last month's pages were the "
            "fraud-score alert firing on noise.",
            None,
        ),
        ("I agree that the pager rota is unfair today.", None),
        # A refusal of the proposal, in words or by pointing at it, still is one.
        ("I don't accept the weekly pager rotation.", OPPOSE),
        ("I won't accept that rotation.", OPPOSE),
        ("That plan won't work for people with small children.", OPPOSE),
    ],
)
def test_without_an_id_a_reaction_with_its_own_clause_is_about_that_clause(text, expected):
    proposals, _ = team_fold([], ELIF, ROTA, 4)
    assert reaction_to(text, proposals[0], turn=5) == expected


@pytest.mark.parametrize(
    "reacting_to, speaker",
    [
        (7, MARCO),  # no proposal has that id: the words alone decide
        (1, ELIF),  # the proposer's own: never a reaction
    ],
)
def test_a_reaction_cited_to_no_open_proposal_of_someone_else_ties_nothing(reacting_to, speaker):
    proposals, _ = team_fold([], ELIF, ROTA, 4)
    proposals, decided = team_fold(
        proposals,
        speaker,
        "Seven days at a time with money for it suits me.",
        9,
        reacting_to=reacting_to,
        read_as=SUPPORT,
    )
    assert proposals[0]["reactions"] == {} and decided == []


@pytest.mark.parametrize(
    "read_as, text, expected",
    [
        (SUPPORT, "Seven days at a time, with money for being reachable: I'm on board.", SUPPORT),
        (SUPPORT, "Paid weeks on the phone, shared by all eight of us: yes.", SUPPORT),
        (OPPOSE, "A whole week on the phone is too long for parents; count me out.", OPPOSE),
        (OPPOSE, "Paid weeks on the phone, shared by all eight of us.", OPPOSE),
        (UNDETERMINED, "Let me think about seven-day shifts over the weekend.", UNDETERMINED),
        # The reading and the words disagree: nothing is claimed either way.
        (SUPPORT, "Maybe, if the allowance covers nights.", UNDETERMINED),
        (OPPOSE, "I'm on board with it.", UNDETERMINED),
    ],
)
def test_the_reading_by_id_and_the_words_together_decide_the_reaction(read_as, text, expected):
    proposals, _ = team_fold([], ELIF, ROTA, 4)
    proposals, _ = team_fold(proposals, MARCO, text, 9, reacting_to=1, read_as=read_as)
    assert proposals[0]["reactions"] == {MARCO: expected}


def test_a_proposer_cannot_accept_their_own_proposal_for_the_others():
    proposals, _ = fold([], BRAM, "I propose a gold-backed reserve tranche for the central bank.", 10)
    proposals, decided = fold(proposals, BRAM, "I fully support my own proposal.", 11)
    assert proposals[0]["reactions"] == {} and decided == []


@pytest.mark.parametrize(
    "cited, tied_to",
    [
        ("X1", 1),  # the id of its item line
        ("[X2]", 2),
        ("turn 4", 1),  # made in a message of the same digest: no line showed it yet
        ("[turn 7]", 2),
        ("turn 5", None),  # a message that proposed nothing
        ("X9", None),
    ],
)
def test_a_reaction_cites_a_proposal_by_its_line_or_by_the_turn_that_made_it(cited, tied_to):
    from debates.blackboard.ledger import reaction_cited
    from debates.blackboard.schemas import ProposalReaction
    from debates.models import Message

    held = [
        {"id": 1, "by": ELIF, "proposal": "A weekly paid rotation.", "turn": 4, "reactions": {}},
        {"id": 2, "by": MARCO, "proposal": "Page only on sustained errors.", "turn": 7, "reactions": {}},
    ]
    reacted = ProposalReaction(proposal=cited, reaction="supports")
    assert reaction_cited(reacted, held, Message(turn=8)) == ((tied_to, SUPPORT) if tied_to else (None, None))
