"""The Collaborate verdict's two readings, checked: the key decisions of the first answers (each
given an id here, D1, D2..., never by the model), and the review of the revised answers, which
must answer by those ids. Model output is untrusted: a decision tied to a turn that is no first
answer is dropped, an id nobody gave is ignored, a decision the review says nothing of is
undecided (never agreed), the first answer for an id stands. Pure Python, no Django."""

from __future__ import annotations

import re

from debates.regime import AGREED, DISPUTED, DROPPED, NO, NUANCED, UNDECIDED, YES

PER_ROLE = 5  # key decisions kept per first answer
_ID = re.compile(r"^\W*([A-Za-z]\d+)\W*$")
REACTIONS = {"accepts": AGREED, "rejects": DISPUTED, "undecided": UNDECIDED}


def decisions_listed(found, roles_by_turn: dict[int, str]) -> list[dict]:
    """The key decisions of the KeyDecisions answer ``found``, in role order, with ids:
    [{"id": "D1", "role": "Architect", "text": ...}]. roles_by_turn: each first answer's turn ->
    its role's name (the roles' order is the dict's)."""
    by_role: dict[str, list[str]] = {role: [] for role in roles_by_turn.values()}
    for made in found.decisions if found is not None else []:
        role = roles_by_turn.get(made.turn)
        text = " ".join(made.decision.split())
        if role is None or not text or len(by_role[role]) >= PER_ROLE:
            continue
        if text.lower() not in (kept.lower() for kept in by_role[role]):
            by_role[role].append(text)
    listed = [(role, text) for role, texts in by_role.items() for text in texts]
    return [{"id": f"D{index}", "role": role, "text": text} for index, (role, text) in enumerate(listed, 1)]


def _id_of(text: str) -> str:
    match = _ID.match(text or "")
    return match.group(1).upper() if match else ""


def decision_outcomes(decisions: list[dict], review) -> list[str]:
    """Each listed decision's outcome from the DecisionReview ``review``, in the decisions' order:
    dropped when its own role no longer holds it, else agreed / disputed / undecided by the other
    role's reaction; undecided when the review did not name it."""
    known = {decision["id"] for decision in decisions}
    taken = {}
    for item in review.decisions:
        key = _id_of(item.decision)
        if key in known and key not in taken:
            taken[key] = item
    outcomes = []
    for decision in decisions:
        item = taken.get(decision["id"])
        if item is None:
            outcomes.append(UNDECIDED)
        elif not item.kept:
            outcomes.append(DROPPED)
        else:
            outcomes.append(REACTIONS[item.reaction])
    return outcomes


def revised_sides(review, roles_by_turn: dict[int, str]) -> dict[str, str]:
    """Each role's answer to the question decided on, from its revised answer (by its turn)."""
    sides = {}
    for answer in review.answers:
        role = roles_by_turn.get(answer.turn)
        if role is not None and role not in sides and answer.side in (YES, NO, NUANCED):
            sides[role] = answer.side
    return sides
