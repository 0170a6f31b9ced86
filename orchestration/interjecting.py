"""The run's side of the owner's interjections (debates/services/interjections.py): taking one up
at a turn boundary, which records it in the answering persona's position ledger (a question or a
challenge as one they owe an answer to, evidence as evidence put to them) before their turn, so the
turn's own ledger update can settle it."""

from __future__ import annotations

from django.db import transaction

from debates.blackboard import updates
from debates.blackboard.models import PositionState
from debates.models import Debate, Interjection
from debates.services.interjections import interjection_mark_read, interjections_waiting


def _ledger_entry(interjection: Interjection) -> str:
    text = " ".join(interjection.text.split())[:200]
    if interjection.kind == Interjection.Kind.EVIDENCE:
        source = interjection.link or interjection.document_title
        return f"the owner's evidence: {text}" + (f" ({source})" if source else "")
    return f"the owner asks: {text}" if interjection.kind == Interjection.Kind.QUESTION else f"the owner: {text}"


def interjection_take_up(*, interjection: Interjection, persona, turn: int, aspect_index: int | None) -> None:
    """The turn ``turn`` of ``persona`` answers it: recorded in that persona's position ledger (a
    question or challenge as one they owe an answer to, evidence as evidence put to them) and marked
    read, so no later turn takes it up again."""
    with transaction.atomic():
        state, _ = PositionState.objects.select_for_update().get_or_create(debate=interjection.debate, persona=persona)
        current = {"aspect_positions": state.aspect_positions}
        entry = [_ledger_entry(interjection)]
        if interjection.kind == Interjection.Kind.EVIDENCE:
            changed = updates.add_evidence(current, entry, aspect_index)
        else:
            changed = updates.add_challenges(current, entry, aspect_index)
        state.aspect_positions = changed["aspect_positions"]
        state.save(update_fields=["aspect_positions", "updated_at"])
        interjection_mark_read(interjection=interjection, turn=turn)


def interjections_for_round(*, debate: Debate, turn: int, default_persona, aspect_index: int | None = None):
    """The interjections a round that begins with main-channel turn ``turn`` follows: those waiting
    are taken up now (each recorded in the ledger of the persona it is addressed to, else of
    ``default_persona``), and those a run that died in this round took up already come back."""
    for interjection in interjections_waiting(debate=debate):
        interjection_take_up(
            interjection=interjection,
            persona=interjection.to_persona or default_persona,
            turn=turn,
            aspect_index=aspect_index,
        )
    return interjections_read_at(debate=debate, turn=turn)


def interjections_read_at(*, debate: Debate, turn: int) -> list[Interjection]:
    """The interjections taken up by the round that begins with main-channel turn ``turn``."""
    return list(
        Interjection.objects.filter(debate=debate, read_at_turn=turn)
        .select_related("to_persona", "document")
        .order_by("seq", "id")
    )
