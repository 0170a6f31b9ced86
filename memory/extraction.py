"""What a finished debate leaves as insights, read from its blackboard and crux cards (no model
call: the ledger and the rooms already did the reading). Confidences follow Proflow's debate
memory (seeds/dual-ai-debate.md): agreed points 0.9, decisions 0.85, key findings 0.8; crux cards
0.8 and their resolutions 0.85.

Plain functions over plain data, so they are tested without a debate.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.relevance import same_point

AGREED, DECISION, FINDING, CRUX, RESOLUTION = 0.9, 0.85, 0.8, 0.8, 0.85
MAX_FINDINGS = 3
FINDING_MIN_IMPORTANCE = 6
MAX_TEXT = 600


@dataclass(frozen=True)
class InsightDraft:
    kind: str  # memory.models.Insight.Kind
    text: str
    confidence: float
    agreed_by_all: bool


def _clean(text: str) -> str:
    return " ".join((text or "").split())[:MAX_TEXT]


def held_by_all(text: str, *, participants: set[int], agreements: dict[int, list[dict]], disagreements=None) -> bool:
    """Whether every participant's final recorded position holds ``text``: each one's own ledger
    lists it among their agreements (in nearly the same words) and not among their disagreements.
    One persona's ledger saying it agreed with another is that persona's record only: the other's
    must say so too."""
    if not participants:
        return False
    disagreements = disagreements or {}

    def lists(items) -> bool:
        return any(same_point(text, item.get("on", "")) for item in items or [] if isinstance(item, dict))

    return all(
        lists(agreements.get(persona_id)) and not lists(disagreements.get(persona_id)) for persona_id in participants
    )


def agreed_points(
    *, participants: set[int], agreements: dict[int, list[dict]], disagreements: dict[int, list[dict]] | None = None
) -> list[InsightDraft]:
    """agreements, disagreements: persona id -> that persona's ledger entries [{"with": id, "on": str}].

    Every point anyone's ledger agreed on is an agreed point; it is agreed by all only when every
    participant's own ledger holds it (held_by_all)."""
    points: list[str] = []
    for items in agreements.values():
        for item in items:
            text = _clean(item.get("on", "")) if isinstance(item, dict) else ""
            if text and not any(same_point(text, seen) for seen in points):
                points.append(text)
    return [
        InsightDraft(
            "agreed",
            text,
            AGREED,
            held_by_all(text, participants=participants, agreements=agreements, disagreements=disagreements),
        )
        for text in points
    ]


# What an Analyst/Critic point leaves, by its final status (orchestration/modes/analyst_critic/
# consensus.py): only what both roles agree on is remembered. A contested or unverifiable point is
# open; one the Analyst narrowed (refined), withdrew or negated is no longer held (the narrower
# point or the negation that replaced it is remembered in its place, when agreed); "superseded"
# is a ledger stored before issue 39 (its negation was agreed).
LEDGER_STATUS_REMEMBERED = {
    "agreed": True,
    "contested": False,
    "unverifiable": False,
    "refined": False,
    "withdrawn": False,
    "negated": False,
    "superseded": False,
}


def ledger_insights(points: list[dict]) -> list[InsightDraft]:
    """An Analyst/Critic debate's point ledger (its last round_scored points): each agreed point is
    agreed by both roles (0.9); one contested first and agreed later (in its own words, or narrowed
    or negated from a contested point) is a decision (0.85). Points that came from memory are
    already insights: not saved again."""
    drafts = []
    for point in points:
        text = _clean(point.get("text", ""))
        if not text or point.get("from_memory") or not LEDGER_STATUS_REMEMBERED.get(point.get("status"), False):
            continue
        if point.get("was_contested"):
            drafts.append(InsightDraft("decision", text, DECISION, True))
        else:
            drafts.append(InsightDraft("agreed", text, AGREED, True))
    return drafts


def insights_extract(
    *,
    participants: set[int],
    agreements: dict[int, list[dict]],
    decisions: list[str],
    reflections: list[tuple[str, int]],
    cards: list[dict],
    ledger_points: list[dict] = (),
    disagreements: dict[int, list[dict]] | None = None,
) -> list[InsightDraft]:
    """reflections: (content, importance); cards: {"question", "diagnosis", "resolved", "resolution",
    "positions": {persona id: YES / NO / NUANCED}}; ledger_points: an Analyst/Critic debate's point
    ledger (see ledger_insights); disagreements: each persona's ledger disagreements."""
    drafts = ledger_insights(list(ledger_points))
    drafts += agreed_points(participants=participants, agreements=agreements, disagreements=disagreements)
    # A decision is one extraction's reading of one message ("a point everyone now explicitly
    # accepts"): agreed by all only when every participant's own ledger holds it too.
    drafts += [
        InsightDraft(
            "decision",
            _clean(text),
            DECISION,
            held_by_all(text, participants=participants, agreements=agreements, disagreements=disagreements),
        )
        for text in decisions
        if _clean(text)
    ]
    strong = sorted((r for r in reflections if r[1] >= FINDING_MIN_IMPORTANCE), key=lambda r: -r[1])
    drafts += [InsightDraft("finding", _clean(content), FINDING, False) for content, _ in strong[:MAX_FINDINGS]]
    for card in cards:
        question = _clean(card["question"])
        drafts.append(InsightDraft("crux", _clean(f"{question} — {card['diagnosis']}"), CRUX, False))
        if card["resolved"] and _clean(card.get("resolution", "")):
            # Unanimous only if every participant took a side in the room, and the same one.
            positions = card.get("positions") or {}
            unanimous = participants <= set(positions) and len({positions[p] for p in participants}) == 1
            drafts.append(InsightDraft("resolution", _clean(f"{question} {card['resolution']}"), RESOLUTION, unanimous))
    unique: list[InsightDraft] = []
    for draft in drafts:
        if draft.text and not any(same_point(draft.text, kept.text) for kept in unique):
            unique.append(draft)
    return unique
