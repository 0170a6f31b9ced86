"""Predictions from crux cards' falsifiers: kept when a debate finishes where the rules find a
checkable claim (atlas/falsifiers.py), kept by the owner from any other falsifier in their own
words, settled when the owner records what happened. The persona whose mind it was to change is reminded of it through their
memory: one persona memory per prediction, rewritten when its status changes, recalled into that
persona's next debate on a topic like the crux (memory/services/persona_memory.py)."""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from atlas.falsifiers import PredictionDraft, prediction_draft
from atlas.models import Prediction
from crux.models import CruxCard
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from memory.models import PersonaMemory
from personas.models import Persona

logger = logging.getLogger(__name__)

MAX_CLAIM = 600
REMINDER_IMPORTANCE = 9  # above a crux card's own memory (8): a settled bet outweighs a stance


@dataclass(frozen=True)
class FalsifierRow:
    """One persona's falsifier on a card, and what the atlas makes of it."""

    persona_id: int | None
    name: str
    falsifier: str
    draft: PredictionDraft | None  # None: not surely checkable (the owner may still keep it)
    prediction: Prediction | None  # kept already


def card_falsifiers(*, card: CruxCard) -> list[FalsifierRow]:
    kept = {p.persona_id: p for p in card.predictions.all()}
    rows = []
    for key, position in (card.positions or {}).items():
        if not isinstance(position, dict) or not str(position.get("falsifier", "")).strip():
            continue
        persona_id = int(key) if str(key).isdigit() else None
        falsifier = str(position["falsifier"]).strip()
        rows.append(
            FalsifierRow(
                persona_id=persona_id,
                name=str(position.get("name", "")),
                falsifier=falsifier,
                draft=prediction_draft(falsifier),
                prediction=kept.get(persona_id) if persona_id is not None else None,
            )
        )
    return rows


def _clean(text: str, field: str) -> str:
    text = " ".join((text or "").split())
    if not text:
        raise ValidationError(
            {field: "Say what would settle it."} if field == "settled_by" else {field: "Write the claim."}
        )
    if len(text) > MAX_CLAIM:
        raise ValidationError({field: f"Keep it under {MAX_CLAIM} characters."})
    return text


def prediction_create(
    *,
    card: CruxCard,
    persona_id: int | None,
    claim: str = "",
    settled_by: str = "",
    check_by: datetime.date | None = None,
) -> Prediction:
    """Keep one persona's falsifier on ``card`` as a prediction. An empty claim takes the rules'
    draft of the falsifier (refused when the rules find none: then the owner writes the claim).
    A persona not on the card is refused; so is a second prediction for the same persona."""
    row = next((r for r in card_falsifiers(card=card) if r.persona_id == persona_id), None) if persona_id else None
    if persona_id is not None and row is None:
        raise ValidationError({"persona": "Pick a persona who gave a falsifier on this card."})
    if row is not None and row.prediction is not None:
        raise ValidationError({"persona": "This falsifier is a prediction already."})
    source = Prediction.Source.BY_HAND
    if not claim.strip() and row is not None and row.draft is not None:
        claim, source = row.draft.claim, Prediction.Source.FALSIFIER
        settled_by = settled_by or row.draft.settled_by
    claim, settled_by = _clean(claim, "claim"), _clean(settled_by, "settled_by")
    with transaction.atomic():
        prediction = Prediction.objects.create(
            card=card, persona_id=persona_id, claim=claim, settled_by=settled_by, check_by=check_by, source=source
        )
        _reminder_write(prediction)
    return prediction


def predictions_from_falsifiers(*, debate) -> list[Prediction]:
    """When a debate finishes: every falsifier on its cards that the rules find checkable is kept as
    a prediction (open, no check-by date until the owner sets one), its persona reminded of it.
    Run again (a resumed finish), it adds none twice."""
    kept = []
    for card in CruxCard.objects.filter(debate=debate).select_related("debate"):
        for row in card_falsifiers(card=card):
            if row.persona_id is not None and row.draft is not None and row.prediction is None:
                kept.append(prediction_create(card=card, persona_id=row.persona_id))
    return kept


def prediction_update(
    *, prediction: Prediction, status: str, outcome_note: str = "", check_by: datetime.date | None = None
) -> Prediction:
    """The owner's record of what happened (or a new check-by date). The persona's reminder is
    rewritten to say it."""
    if status not in Prediction.Status.values:
        raise ValidationError({"status": "Pick one of the outcomes."})
    note = " ".join((outcome_note or "").split())
    if len(note) > MAX_CLAIM:
        raise ValidationError({"outcome_note": f"Keep it under {MAX_CLAIM} characters."})
    prediction.status, prediction.outcome_note, prediction.check_by = status, note, check_by
    prediction.decided_at = timezone.now() if status != Prediction.Status.OPEN else None
    with transaction.atomic():
        prediction.save(update_fields=["status", "outcome_note", "check_by", "decided_at"])
        _reminder_write(prediction)
    return prediction


def reminder_text(prediction: Prediction) -> str:
    """In the second person, as persona memories are: it goes as it is into the persona's prompt."""
    question = prediction.card.question
    text = f"On the crux “{question}” you said you would change your mind if: {prediction.claim}."
    if prediction.status == Prediction.Status.OPEN:
        when = f" by {prediction.check_by:%Y-%m-%d}" if prediction.check_by else ""
        return text + f" That is still open{when}."
    text += f" What happened, as recorded: {prediction.get_status_display().lower()}."
    if prediction.outcome_note:
        text += f" ({prediction.outcome_note})"
    if prediction.status == Prediction.Status.CAME_TRUE:
        text += " By your own test, weigh whether your side on this crux still holds."
    return text


def _reminder_write(prediction: Prediction) -> None:
    """The persona's memory of the prediction, embedded like every persona memory; an embedding
    failure stores it without a vector (recalled by recency and importance alone), never raises."""
    if prediction.persona_id is None or not Persona.objects.filter(pk=prediction.persona_id).exists():
        return
    text = reminder_text(prediction)
    vector, model = None, ""
    try:
        batch = embeddings.embed([text], purpose=Purpose.DOCUMENT, tag=CallTag(phase="memory"))
        vector, model = batch.vectors[0], batch.model
    except EmbeddingError as exc:
        logger.warning("Prediction %s reminder saved without an embedding: %s", prediction.pk, exc)
    debate = prediction.card.debate
    fields = {"text": text, "embedding": vector, "embedding_model": model}
    if prediction.reminder_id and PersonaMemory.objects.filter(pk=prediction.reminder_id).update(**fields):
        return
    prediction.reminder = PersonaMemory.objects.create(
        owner=debate.owner,
        persona_id=prediction.persona_id,
        project=debate.context_project,
        kind=PersonaMemory.Kind.CRUX_CARD,
        importance=REMINDER_IMPORTANCE,
        **fields,
    )
    prediction.save(update_fields=["reminder"])
