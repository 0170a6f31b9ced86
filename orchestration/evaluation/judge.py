"""An LLM judge of crux cards, run only against Claude (``--model anthropic`` with an API key).

It scores what ground truth cannot: is the card's question a real yes/no crux, and does each
side's falsifier fit that side. Its scores are opinions, so the report keeps them apart from the
ground-truth metrics; with the fake model it does not run.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from crux.models import CruxCard
from debates.models import Debate
from gateways.llm.batches import BatchCall, extract_batch
from gateways.llm.types import CallTag, Prompt, Role

CARD_JUDGE = (
    "You review crux cards from a debate. A crux is a yes/no question on which the two people "
    "really split, such that settling it would move at least one of them. Score 1-5: is this card's "
    "question a real yes/no crux of the disagreement (5: sharp and real; 1: vague, not yes/no, or "
    "not what they split on); do each side's falsifiers fit that side's position (5: each names "
    "evidence that would move exactly that person; 1: generic or backwards). One short note."
)


class CardJudgement(BaseModel):
    real_crux: int = Field(ge=1, le=5)
    falsifiers_fit: int = Field(ge=1, le=5)
    note: str = Field(default="", max_length=300)


def cards_judge(*, debate: Debate) -> list[dict]:
    """One judgement per card, all in one Message Batch (half price; nobody waits on a score)."""
    cards = list(CruxCard.objects.filter(debate=debate).order_by("created_at"))
    calls = [
        BatchCall(
            role=Role.JUDGING,
            prompt=Prompt(
                system_prefix=CARD_JUDGE,
                messages=[
                    {"role": "user", "content": f"Debate: {debate.topic}\nCard: {card.question}\n{_sides(card)}"}
                ],
                max_tokens=300,
                temperature=0.0,
            ),
            schema=CardJudgement,
            tag=CallTag(debate_id=debate.id, phase="evaluation_judge"),
        )
        for card in cards
    ]
    verdicts = extract_batch(calls, what=f"Judging the cards of {debate.id}")
    return [
        {"question": card.question, **verdict.model_dump()}
        for card, verdict in zip(cards, verdicts, strict=True)
        if verdict is not None
    ]


def _sides(card: CruxCard) -> str:
    return "\n".join(
        f"- {p['name']}: {p['position']} — {p['reasoning']} (would move if: {p['falsifier']})"
        for p in card.positions.values()
    )


def judge_summary(debates: list[dict]) -> dict:
    scores = [j for d in debates for j in d["judge"]]
    if not scores:
        return {"cards": 0}
    return {
        "cards": len(scores),
        "real_crux": round(sum(j["real_crux"] for j in scores) / len(scores), 2),
        "falsifiers_fit": round(sum(j["falsifiers_fit"] for j in scores) / len(scores), 2),
    }
