"""Memory inside one debate (blackboard phase 5): what was said or established earlier, embedded
once, and recalled into a later turn by 0.5·recency + 3·relevance + 2·importance on the current
aspect and the last message, only above the embedding model's relevance floor (memory/scoring.py,
memory/relevance.py). A crux room's bridge (related_cards) finds the earlier cards most related to
its question, this debate's and the owner's from earlier debates.

Side work: an embedding failure leaves rows unembedded (the next batch tries them again) and a
turn without recall; it never raises into the debate.
"""

from __future__ import annotations

import hashlib
import logging
import math
from dataclasses import dataclass, field

from django.db.models import Avg, ExpressionWrapper, Value
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, VectorField

from crux.models import CruxCard, DisagreementCandidate
from debates.blackboard.models import PositionState, Reflection
from debates.models import Debate, Message
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from memory.models import InDebateMemory, Insight, MemoryRecall
from memory.relevance import (
    CENTRED_MARGINS,
    IN_DEBATE_MARGINS,
    UNKNOWN_CENTRED_MARGIN,
    UNKNOWN_IN_DEBATE_MARGIN,
    standing_among,
)
from memory.scoring import Candidate, Scored, earlier_pick
from memory.services.insights import distance_to, insights_in_scope, nearest_rows, recall_floors
from memory.services.recall import recall_scope

logger = logging.getLogger(__name__)

CANDIDATES = 40  # nearest items scored per recall
MAX_TEXT = 500
EMBED_BATCH = 64  # unembedded items a batch takes (the rest go in the next one)
MESSAGE_IMPORTANCE = 5  # a message the ledger has not rated yet
# Importance of ledger items (1-10), as persona memory rates their kinds.
CONCESSION, SHIFT, EVIDENCE, CARD = 8, 7, 6, 8
Kind = InDebateMemory.Kind


def _clip(text: str) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1].rsplit(" ", 1)[0] + "…"


def _digest(text: str) -> str:
    return hashlib.sha1(" ".join(text.lower().split()).encode()).hexdigest()[:16]


def card_outcome(card: CruxCard) -> str:
    """A crux card in one line, with how it came out."""
    stances = ", ".join(
        f"{p.get('name', '?')}: {p.get('position', '?')}" for p in card.positions.values() if isinstance(p, dict)
    )
    outcome = f"resolved: {card.resolution}" if card.resolved and card.resolution else "unresolved"
    if not card.resolved and card.diagnosis:
        outcome += f" ({card.get_disagreement_type_display().lower()}: {card.diagnosis})"
    return f"Crux “{card.question}” — {stances}; {outcome}"


def _items_new(debate: Debate) -> list[InDebateMemory]:
    """Rows for what the debate holds and no row stands for yet (keys not stored)."""
    known = set(InDebateMemory.objects.filter(debate=debate).values_list("key", flat=True))
    items: list[InDebateMemory] = []

    def add(kind: str, key: str, text: str, importance: int, message_id=None) -> None:
        if key not in known and text.strip():
            known.add(key)
            items.append(
                InDebateMemory(
                    debate=debate, kind=kind, key=key, text=_clip(text), importance=importance, message_id=message_id
                )
            )

    # Only messages no row stands for yet: run after every fold, reading the whole debate each
    # time cost ~4% of a worker's CPU in ten live debates (py-spy, 2026-11-27).
    stored = InDebateMemory.objects.filter(debate=debate, message__isnull=False).values("message_id")
    said = Message.objects.filter(debate=debate, status=Message.Status.COMPLETE).exclude(text="").exclude(id__in=stored)
    for message in said.select_related("persona").order_by("created_at", "id"):
        importance = message.importance or MESSAGE_IMPORTANCE
        add(Kind.MESSAGE, f"message:{message.id}", f"{message.persona.name}: {message.text}", importance, message.id)
    names = dict(debate.participants.values_list("persona_id", "persona__name"))
    for state in PositionState.objects.filter(debate=debate).order_by("persona_id"):
        name = names.get(state.persona_id, "Someone")
        for concession in state.concessions:
            text = concession.get("concession", "") if isinstance(concession, dict) else str(concession)
            add(
                Kind.CONCESSION,
                f"concession:{state.persona_id}:{_digest(text)}",
                f"{name} conceded: {text}",
                CONCESSION,
            )
        for shift in state.shifts:
            text = shift.get("shift", "") if isinstance(shift, dict) else str(shift)
            add(Kind.SHIFT, f"shift:{state.persona_id}:{_digest(text)}", f"{name}'s position moved: {text}", SHIFT)
        for evidence in state.evidence:
            add(
                Kind.EVIDENCE, f"evidence:{state.persona_id}:{_digest(evidence)}", f"{name} cited: {evidence}", EVIDENCE
            )
    for reflection in Reflection.objects.filter(debate=debate).order_by("created_at", "id"):
        add(Kind.REFLECTION, f"reflection:{reflection.id}", f"Noticed: {reflection.content}", reflection.importance)
    for card in CruxCard.objects.filter(debate=debate).order_by("created_at", "id"):
        add(Kind.CRUX_CARD, f"crux_card:{card.id}", card_outcome(card), CARD)
    return items


DISPUTE_BATCH = 16  # tracked disputes a batch takes besides its items


def debate_memories_embed(*, debate: Debate) -> int:
    """Store what is new in the debate and embed, in one batch, what has no vector yet (a failed
    batch's rows included), and the disputes staging tracks that have none (crux/staging.py tells
    a dispute reported in other words by them, once made). Returns how many were embedded."""
    new = _items_new(debate)
    if new:
        InDebateMemory.objects.bulk_create(new, ignore_conflicts=True)  # a row another batch stored stays
    pending = list(InDebateMemory.objects.filter(debate=debate, embedding__isnull=True).order_by("id")[:EMBED_BATCH])
    disputes = list(
        DisagreementCandidate.objects.filter(debate=debate, embedding__isnull=True).only("id", "dispute")[
            :DISPUTE_BATCH
        ]
    )
    if not pending and not disputes:
        return 0
    try:
        batch = embeddings.embed(
            [row.text for row in pending] + [candidate.dispute for candidate in disputes],
            purpose=Purpose.DOCUMENT,
            tag=CallTag(debate_id=debate.id, phase="in_debate_memory"),
        )
    except EmbeddingError as exc:
        logger.warning(
            "Debate %s: %s earlier item(s) left unembedded for now: %s", debate.id, len(pending) + len(disputes), exc
        )
        return 0
    for row, vector in zip(pending + disputes, batch.vectors, strict=True):
        row.embedding, row.embedding_model = vector, batch.model
    InDebateMemory.objects.bulk_update(pending, ["embedding", "embedding_model"])
    DisagreementCandidate.objects.bulk_update(disputes, ["embedding", "embedding_model"])
    return len(pending) + len(disputes)


def message_vectors(*, debate: Debate, message_ids: list[int], model: str) -> dict[int, tuple[float, ...]]:
    """The vectors already made of these messages by ``model`` (message id -> vector), read, never
    made: a message not embedded yet has none (orchestration/circling.py then reads its words)."""
    rows = InDebateMemory.objects.filter(
        debate=debate, message_id__in=message_ids, embedding_model=model, embedding__isnull=False
    ).values_list("message_id", "embedding")
    return {message_id: tuple(_floats(embedding)) for message_id, embedding in rows}


@dataclass(frozen=True)
class EarlierRecall:
    picked: list[Scored]  # best first; candidate.id is the InDebateMemory row's
    floor: float | None  # the floor their similarity cleared (None: no query vector, nothing recalled)
    model: str = ""
    message_ids: dict[int, int] = field(default_factory=dict)  # row id -> its message's, for messages


def earlier_recall(
    *, debate: Debate, query: str, exclude_message_ids=(), budget_tokens: int, top: int = 5
) -> EarlierRecall:
    """The debate's earlier items most worth recalling for ``query`` (the current aspect and the
    last message), by the seed's score among those that stand out from the debate's own
    background (memory.relevance.standing_among: above the model's insight floor and the plain
    median, and, measured from the debate's mean vector, above the centred median; relevance is
    the centred similarity), within ``budget_tokens``; never the messages in
    ``exclude_message_ids`` (the turn shows them verbatim). An embedding failure recalls nothing.
    The similarities are computed in the database (_similarities)."""
    model = embeddings.current_model()
    scope = InDebateMemory.objects.filter(debate=debate, embedding_model=model, embedding__isnull=False)
    if exclude_message_ids:
        scope = scope.exclude(message_id__in=list(exclude_message_ids))
    if not scope.exists():
        return EarlierRecall([], None, model)
    try:
        batch = embeddings.embed([query], purpose=Purpose.QUERY, tag=CallTag(debate_id=debate.id, phase="recall"))
    except EmbeddingError as exc:
        logger.warning("Debate %s: this turn recalls nothing of the debate: %s", debate.id, exc)
        return EarlierRecall([], None, model)
    (vector,) = batch.vectors
    stored = _similarities(scope, vector)
    standing = standing_among(
        [plain for _, plain, _ in stored],
        [centred for _, _, centred in stored],
        floor=recall_floors(batch.model).insight,
        margin=IN_DEBATE_MARGINS.get(batch.model, UNKNOWN_IN_DEBATE_MARGIN),
        centred_margin=CENTRED_MARGINS.get(batch.model, UNKNOWN_CENTRED_MARGIN),
    )
    best = sorted(standing.similarities, key=lambda index: -standing.similarities[index])[:CANDIDATES]
    similarity = {stored[index][0]: standing.similarities[index] for index in best}
    best_rows = scope.filter(id__in=list(similarity)).select_related("message")
    best_rows = best_rows.only("id", "text", "importance", "message__importance")  # not the vectors
    rows = sorted(best_rows, key=lambda row: -similarity[row.id])
    later = _items_after(debate, [row.id for row in rows])
    candidates = [
        Candidate(
            id=row.id,
            text=row.text,
            hours_ago=later.get(row.id, 0),  # items since: earlier_pick's age unit
            similarity=similarity[row.id],
            importance=(row.message.importance if row.message and row.message.importance else row.importance),
        )
        for row in rows
    ]
    picked = earlier_pick(candidates, floor=standing.floor, budget_tokens=budget_tokens, top=top)
    return EarlierRecall(picked, standing.floor, model, {row.id: row.message_id for row in rows if row.message_id})


def _similarities(scope, query: list[float]) -> list[tuple[int, float, float]]:
    """(row id, plain, centred similarity to ``query``) for every row of ``scope``, computed by
    pgvector where the vectors are: the debate's mean vector taken out of the row and of the query
    for the centred one (memory.relevance). Reading a few hundred 512-float vectors into Python
    and comparing them there held the interpreter lock, beside the run's own thread: py-spy over
    two benchmark debates, 161 samples at 250 Hz in the read and the comparison, ~45 in this."""
    stored = Cast("embedding", VectorField())  # single precision, as stored rows are half: no rounding on the way
    mean = _floats(scope.aggregate(mean=Avg(stored, output_field=VectorField()))["mean"])
    centred_query = [q - m for q, m in zip(query, mean, strict=True)]
    off_mean = ExpressionWrapper(stored - Value(mean, output_field=VectorField()), output_field=VectorField())
    rows = scope.annotate(
        plain=CosineDistance(stored, query), centred=CosineDistance(off_mean, centred_query)
    ).values_list("id", "plain", "centred")
    return [(row_id, _similarity(plain), _similarity(centred)) for row_id, plain, centred in rows]


def _similarity(distance: float | None) -> float:
    """1 − pgvector's cosine distance; 0 where it has none (NaN: a vector with no direction, as
    memory.relevance.cosine has it)."""
    return 0.0 if distance is None or math.isnan(distance) else 1.0 - distance


def _floats(embedding) -> list[float]:
    return embedding.to_list() if hasattr(embedding, "to_list") else [float(x) for x in embedding]


def _items_after(debate: Debate, ids: list[int]) -> dict[int, int]:
    """For each row id: how many of the debate's items were stored after it (its age in items)."""
    all_ids = list(InDebateMemory.objects.filter(debate=debate).order_by("id").values_list("id", flat=True))
    position = {row_id: index for index, row_id in enumerate(all_ids)}
    return {row_id: len(all_ids) - 1 - position[row_id] for row_id in ids if row_id in position}


# ── the crux room's bridge ──────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class RelatedCard:
    text: str  # the card and its outcome, in one line
    similarity: float
    earlier_debate: bool  # from one of the owner's earlier debates (else this one's)


def related_cards(*, debate: Debate, question: str, exclude_room_id=None, top: int = 3) -> list[RelatedCard]:
    """The crux cards most related to a room's ``question``, at or above the model's insight floor:
    this debate's other rooms' cards, and the cruxes and resolutions the owner's earlier debates
    left, in the scope this debate recalls from (its project's; all the owner's only if opted in).
    Nothing on an embedding failure."""
    cards = list(CruxCard.objects.filter(debate=debate).exclude(room_id=exclude_room_id).order_by("created_at"))
    texts = [card_outcome(card) for card in cards]
    try:
        query = embeddings.embed([question], purpose=Purpose.QUERY, tag=CallTag(debate_id=debate.id, phase="bridge"))
        documents = (
            embeddings.embed(texts, purpose=Purpose.DOCUMENT, tag=CallTag(debate_id=debate.id, phase="bridge"))
            if texts
            else None
        )
    except EmbeddingError as exc:
        logger.warning("Debate %s: a crux room starts without related cards: %s", debate.id, exc)
        return []
    (vector,) = query.vectors
    floor = recall_floors(query.model).insight
    found = [
        RelatedCard(text, sum(a * b for a, b in zip(vector, card_vector, strict=True)), False)
        for text, card_vector in zip(texts, documents.vectors if documents else [], strict=True)
    ]
    for insight in _earlier_cruxes(debate, vector, query.model):
        # An earlier crux insight is "question — diagnosis" (not settled), a resolution is settled.
        found.append(RelatedCard(f"{insight.get_kind_display()}: {insight.text}", 1 - insight.distance, True))
    found = [card for card in found if card.similarity >= floor]
    return sorted(found, key=lambda card: -card.similarity)[:top]


def _earlier_cruxes(debate: Debate, vector: list[float], model: str) -> list[Insight]:
    if debate.owner_id is None or recall_scope(debate) == MemoryRecall.Scope.NONE:
        return []
    scope = insights_in_scope(owner=debate.owner, project=debate.context_project).exclude(debate=debate)
    scope = scope.filter(
        kind__in=[Insight.Kind.CRUX, Insight.Kind.RESOLUTION], embedding_model=model, embedding__isnull=False
    )
    return nearest_rows(scope.annotate(distance=distance_to(vector)).order_by("distance")[:CANDIDATES])
