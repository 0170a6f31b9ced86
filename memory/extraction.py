"""What a finished debate leaves as insights, read from its blackboard and crux cards (no model
call: the ledger and the rooms already did the reading). Confidences follow Proflow's debate
memory (seeds/dual-ai-debate.md): agreed points 0.9, decisions 0.85, key findings 0.8; crux cards
0.8 and their resolutions 0.85.

Plain functions over plain data, so they are tested without a debate.
"""

from __future__ import annotations

from dataclasses import dataclass

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


def agreed_points(*, participants: set[int], agreements: dict[int, list[dict]]) -> list[InsightDraft]:
    """agreements: persona id -> that persona's ledger agreements [{"with": id, "on": str}].

    A point is agreed by all when the personas on either side of its agreements, taken together,
    are every participant (in a two-person debate, any agreement)."""
    who: dict[str, set[int]] = {}
    wording: dict[str, str] = {}
    for persona_id, items in agreements.items():
        for item in items:
            text = _clean(item.get("on", ""))
            if not text:
                continue
            key = text.lower().rstrip(".")
            wording.setdefault(key, text)
            who.setdefault(key, set()).update({persona_id, item.get("with")})
    return [
        InsightDraft("agreed", wording[key], AGREED, bool(participants) and participants <= who[key]) for key in wording
    ]


def ledger_insights(points: list[dict]) -> list[InsightDraft]:
    """An Analyst/Critic debate's point ledger (its last round_scored points): each agreed point is
    agreed by both roles (0.9), one contested first and agreed later is a decision (0.85). Points
    that came from memory are already insights: not saved again."""
    drafts = []
    for point in points:
        text = _clean(point.get("text", ""))
        if not text or point.get("from_memory") or point.get("status") != "agreed":
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
) -> list[InsightDraft]:
    """reflections: (content, importance); cards: {"question", "diagnosis", "resolved", "resolution",
    "positions": [str]} (each persona's YES / NO / NUANCED); ledger_points: an Analyst/Critic
    debate's point ledger (see ledger_insights)."""
    drafts = ledger_insights(list(ledger_points))
    drafts += agreed_points(participants=participants, agreements=agreements)
    # A decision is, by the ledger's own definition, "a point everyone now explicitly accepts".
    drafts += [InsightDraft("decision", _clean(text), DECISION, True) for text in decisions if _clean(text)]
    strong = sorted((r for r in reflections if r[1] >= FINDING_MIN_IMPORTANCE), key=lambda r: -r[1])
    drafts += [InsightDraft("finding", _clean(content), FINDING, False) for content, _ in strong[:MAX_FINDINGS]]
    for card in cards:
        question = _clean(card["question"])
        drafts.append(InsightDraft("crux", _clean(f"{question} — {card['diagnosis']}"), CRUX, False))
        if card["resolved"] and _clean(card.get("resolution", "")):
            unanimous = len(set(card.get("positions") or [])) == 1
            drafts.append(InsightDraft("resolution", _clean(f"{question} {card['resolution']}"), RESOLUTION, unanimous))
    seen: set[str] = set()
    unique = []
    for draft in drafts:
        if draft.text and draft.text.lower() not in seen:
            seen.add(draft.text.lower())
            unique.append(draft)
    return unique
