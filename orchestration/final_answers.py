"""What the dialogue and graph verdicts read beside their own records: each persona's final answer
to the question decided on, with the condition a NUANCED one hangs on, the conditions compared
(debates/conditions.py: by reference, else by meaning), and, for a topic no yes/no question fits,
how each crux came out. The verdict itself is the table's (debates/regime.py).

Comparing conditions by meaning embeds them once, when the results are made (a handful of short
texts, never in front of a turn); an embedder that fails leaves the word rule, which never takes
other words for the same condition.
"""

from __future__ import annotations

import logging

from debates.blackboard.models import BlackboardNotes, PositionState
from debates.conditions import Condition, condition_floor, conditions_same
from debates.models import Debate
from debates.question import decided_question
from debates.regime import CRUX_AGREED, NUANCED, Evidence, FinalAnswers, crux_agreement, verdict
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag

logger = logging.getLogger(__name__)


def final_answers(*, debate: Debate, seats: list[tuple[int, str, int]]) -> FinalAnswers:
    """Each participant's last recorded answer (seats: (persona id, name, seat), in seat order)
    and what a NUANCED one hangs on; the NUANCED answers' conditions compared when everyone's is
    NUANCED (only then can they agree on one)."""
    held = {
        persona_id: (side, condition)
        for persona_id, side, condition in PositionState.objects.filter(debate=debate).values_list(
            "persona_id", "topic_side", "topic_condition"
        )
    }
    sides = {name: held.get(persona_id, ("", ""))[0] for persona_id, name, _ in seats}
    conditions = {
        name: held[persona_id][1] for persona_id, name, _ in seats if persona_id in held and held[persona_id][1]
    }
    said = [conditions.get(name, "") for name, side in sides.items() if side == NUANCED]
    everyone_nuanced = bool(sides) and all(side == NUANCED for side in sides.values())
    same = everyone_nuanced and all(said) and _one_condition(debate, said)
    return FinalAnswers(sides=sides, conditions=conditions, same_condition=same)


def _one_condition(debate: Debate, texts: list[str]) -> bool:
    distinct = list(dict.fromkeys(texts))
    plain = [Condition(text) for text in distinct]
    if conditions_same(plain, floor=1.0):  # the same words: no vector needed
        return True
    try:
        batch = embeddings.embed(
            distinct, purpose=Purpose.DOCUMENT, tag=CallTag(debate_id=debate.id, phase="conditions")
        )
    except EmbeddingError as exc:
        logger.warning("Debate %s: conditions compared by their words only (no vectors): %s", debate.id, exc)
        return False
    by_text = dict(zip(distinct, batch.vectors, strict=True))
    compared = [Condition(text, vector=by_text[text]) for text in distinct]
    return conditions_same(compared, floor=condition_floor(batch.model))


def per_crux(*, debate: Debate, cruxes: list[dict]) -> list[dict]:
    """For a topic no yes/no question fits: each crux and how it came out ({"question",
    "agreement": agree | disagree | partial}). cruxes: {"question", "positions", "resolved"} (a
    crux card, a map dispute); the decisions everyone accepted (the "Where we are" notes) are
    agreed cruxes too."""
    found = [
        {"question": crux["question"], "agreement": crux_agreement(crux["positions"], resolved=crux["resolved"])}
        for crux in cruxes
    ]
    decisions = BlackboardNotes.objects.filter(debate=debate).values_list("decisions", flat=True).first() or []
    for decision in decisions:
        text = (decision.get("decision") or decision.get("text")) if isinstance(decision, dict) else decision
        if isinstance(text, str) and text.strip():
            found.append({"question": text.strip(), "agreement": CRUX_AGREED})
    return found


def verdict_fields(*, debate: Debate, evidence: Evidence, answers: FinalAnswers, cruxes: list[dict]) -> dict:
    """The results' verdict keys, on the question decided on: the verdict and its basis, the
    question, the final answers and their conditions, and per crux where no yes/no question fits."""
    fields = {
        "regime": verdict(evidence),
        "regime_basis": evidence.basis,
        "decided_on": decided_question(debate),
        "final_sides": answers.sides,
        "final_conditions": {name: answers.conditions[name] for name in answers.conditions},
        "conditions": list(evidence.conditions),
    }
    if not evidence.yes_no:
        fields["per_crux"] = per_crux(debate=debate, cruxes=cruxes)
    return fields
