"""Long-term memory at a debate's two ends: what it recalls before its first turn, and what it
leaves for later debates before it finishes (memory/). Side work: a failure is logged and the
debate goes on."""

from __future__ import annotations

import logging

from atlas.services.predictions import predictions_from_falsifiers
from memory.services.insights import insights_remember
from memory.services.persona_memory import persona_memories_remember
from memory.services.recall import debate_recall

logger = logging.getLogger(__name__)


def debate_recall_quietly(*, debate) -> None:
    """Before the first turn: the owner's earlier insights and established facts."""
    try:
        recall = debate_recall(debate=debate)
    except Exception:
        logger.exception("Memory recall for debate %s failed; it starts without memory", debate.id)
        return
    if recall is not None and recall.note:
        logger.warning("Debate %s: %s", debate.id, recall.note)


def debate_remember_quietly(*, debate) -> None:
    """After the last phase, before the finish (the last turn written)."""
    for what, remember in (
        ("insights", insights_remember),
        ("persona memories", persona_memories_remember),
        ("predictions", predictions_from_falsifiers),  # checkable falsifiers, for the crux atlas
    ):
        try:
            remember(debate=debate)
        except Exception:
            logger.exception("Saving the %s of debate %s failed; the debate finishes anyway", what, debate.id)
