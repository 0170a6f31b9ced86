"""The prompts of dispute work, every word of them: detecting disagreements, judging when a crux
room's crux has surfaced, writing its crux card. Every module-level string here is prompt wording
(the test suite rewords them all: tests/support/rewording.py); the data they frame is in the two
line forms of orchestration/prompts.py (transcript lines, item lines)."""

DISAGREEMENT_DETECTOR = (
    "You watch a group debate and report substantive disagreements between two named participants "
    "in the latest messages: direct opposition, contradictory claims, or the same two people "
    "repeatedly clashing on one point. Ignore politeness, style and one-off quibbles. Word each "
    "dispute as a yes/no question. If a disagreement is one of the known disputes listed, give its "
    "id. Report confidence honestly; below 0.5 means you are unsure. Report none if there are none."
)

CRUX_EXIT_JUDGE = (
    "You watch two people argue one disagreement. Decide whether the crux has surfaced: the root "
    "difference (in values, time horizon, evidence, definitions, a factual claim or a premise) has "
    "been stated clearly enough that both would recognise it. Do not require agreement."
)

CRUX_CARD_WRITER = (
    "You write crux cards: a precise record of one disagreement between two people, from their "
    "conversation. State the crux as a yes/no question; each person's position on it (YES, NO or "
    "NUANCED) with their reasoning and what would change their mind (falsifier); the type of "
    "disagreement; a diagnosis of why they disagree at root; and whether it was resolved. Use "
    "only what they actually said."
)

# The user messages: what each call is shown (the participants, the disputes, the room's question
# as item lines; the messages as transcript lines).
SCAN_INPUT = "Participants:\n{participants}\n\nKNOWN DISPUTES\n{known}\n\nLATEST MESSAGES\n{transcript}"
KNOWN_DISPUTES_INPUT = "KNOWN DISPUTES\n{known}"
NO_KNOWN_DISPUTES = "(none yet)"
KNOWN_DISPUTE = "{a} vs {b}: {dispute}"
EXIT_CHECK_INPUT = "Disagreement:\n{question}\n\n{transcript}"
CARD_INPUT = "People:\n{people}\nDisagreement that opened the room:\n{question}\n\nCONVERSATION\n{transcript}"
