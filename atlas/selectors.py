"""Reading the crux atlas: every crux card of an owner's debates (or of one project's), grouped
into recurring cruxes (atlas/clustering.py), each with its record (atlas/recurrence.py), its
predictions and the re-runs that link its debates. Private: only the owner's own rows are read."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from atlas.clustering import CruxPoint, crux_clusters, crux_text, threshold_for
from atlas.models import Prediction
from atlas.people import PersonTrack, people_tracks
from atlas.recurrence import Appearance, CruxRecord, crux_record
from atlas.services.vectors import crux_similarities, crux_vectors_ensure
from crux.models import CruxCard
from debates.models import Debate, DebateMember, PersonSide
from gateways.embeddings import gateway as embeddings

GRID_CRUXES = 12  # columns of the persona × crux grid: the most recurrent cruxes


@dataclass(frozen=True)
class Rerun:
    original: Debate
    rerun: Debate
    swapped_out: list[str]  # persona names in the original, not in the re-run
    swapped_in: list[str]


@dataclass
class AtlasCrux:
    key: str  # stable while its oldest card lives: "crux-<card id>"
    record: CruxRecord
    debates: list[Debate]  # oldest first, as record.appearances
    predictions: list[Prediction] = field(default_factory=list)
    reruns: list[Rerun] = field(default_factory=list)
    people: list[PersonTrack] = field(default_factory=list)  # the owner's and members' sides, debate by debate

    @property
    def wordings(self) -> list[str]:
        return list(dict.fromkeys(a.question for a in self.record.appearances))

    @property
    def other_wordings(self) -> list[str]:
        """The crux's wordings that say it otherwise than its heading: one that differs only by a
        detector's framing, its case or its question mark is the heading again, not listed twice."""
        seen = {crux_text(self.record.question).casefold()}
        others = []
        for wording in self.wordings:
            key = crux_text(wording).casefold()
            if key not in seen:
                seen.add(key)
                others.append(wording)
        return others


@dataclass
class Atlas:
    cruxes: list[AtlasCrux]
    query: str
    threshold: float
    embedding_model: str
    cards: int  # cards in scope, before the search

    @property
    def grid_cruxes(self) -> list[AtlasCrux]:
        return self.cruxes[:GRID_CRUXES]

    @property
    def grid_personas(self) -> list[str]:
        names: list[str] = []
        for crux in self.grid_cruxes:
            names += [name for name in crux.record.personas if name not in names]
        return names

    def grid_rows(self) -> list[tuple[str, list[list[str]]]]:
        """[(persona, [[their side in each debate of the crux, oldest first] per crux])]."""
        return [
            (
                persona,
                [
                    [crux.record.side(persona, a.debate_id) for a in crux.record.appearances if persona in a.sides]
                    for crux in self.grid_cruxes
                ],
            )
            for persona in self.grid_personas
        ]


def _sides(card: CruxCard) -> dict[str, str]:
    sides = {}
    for position in (card.positions or {}).values():
        if isinstance(position, dict) and position.get("name"):
            sides[str(position["name"])] = str(position.get("position", ""))
    return sides


def _matches(crux: AtlasCrux, words: list[str]) -> bool:
    haystack = " ".join(
        [*crux.wordings, *(d.topic for d in crux.debates), *crux.record.personas, *(p.claim for p in crux.predictions)]
    ).lower()
    return all(word in haystack for word in words)


def _reruns(debates: list[Debate]) -> list[Rerun]:
    """The re-runs started from one of ``debates`` or leading to one (the owner's own only)."""
    if not debates:
        return []
    ids = {d.id for d in debates}
    pairs = Debate.objects.filter(owner_id=debates[0].owner_id, rerun_of__isnull=False).filter(
        Q(rerun_of__in=ids) | Q(pk__in=ids)
    )
    reruns = []
    for rerun in pairs.select_related("rerun_of").prefetch_related(
        "participants__persona", "rerun_of__participants__persona"
    ):
        before = [p.persona.name for p in rerun.rerun_of.participants.all()]
        after = [p.persona.name for p in rerun.participants.all()]
        reruns.append(
            Rerun(
                original=rerun.rerun_of,
                rerun=rerun,
                swapped_out=[n for n in before if n not in after],
                swapped_in=[n for n in after if n not in before],
            )
        )
    return sorted(reruns, key=lambda r: r.rerun.created_at)


def people_sides(cards: list[CruxCard]) -> dict[int, dict[str, str]]:
    """card id -> {person: their latest side on it}, for the people on each card's debate today
    (its owner and its members: a removed member's sides are shown nowhere)."""
    debate_ids = {card.debate_id for card in cards}
    team = {
        (debate_id, owner_id)
        for debate_id, owner_id in Debate.objects.filter(pk__in=debate_ids).values_list("pk", "owner_id")
    }
    team |= set(DebateMember.objects.filter(debate_id__in=debate_ids).values_list("debate_id", "user_id"))
    sides: dict[int, dict[str, str]] = {}
    rows = PersonSide.objects.filter(card_id__in=[card.id for card in cards], debate_id__in=debate_ids)
    for debate_id, user_id, card_id, name, side in rows.order_by("created_at", "id").values_list(
        "debate_id", "user_id", "card_id", "user__username", "side"
    ):
        if (debate_id, user_id) in team:
            sides.setdefault(card_id, {})[name] = side  # later rows replace earlier ones
    return sides


def atlas_cards(*, owner, project=None):
    cards = CruxCard.objects.filter(debate__owner=owner)
    if project is not None:
        cards = cards.filter(debate__context_project=project)
    return cards.select_related("debate").order_by("debate__created_at", "created_at", "id")


def atlas_for(*, owner, project=None, query: str = "") -> Atlas:
    """The owner's atlas (one project's, if given): recurring cruxes, most debates first, then the
    most decisive; ``query`` keeps those whose wordings, debate topics, personas or predictions
    hold every word of it."""
    cards = list(atlas_cards(owner=owner, project=project))
    vectors = crux_vectors_ensure(cards=cards)
    model = embeddings.current_model()
    # The vectors stay in the database: it compares them (crux_similarities); a card without a
    # vector of the current model is compared by its words.
    points = [CruxPoint(id=card.id, debate=str(card.debate_id), text=card.question) for card in cards]
    similarities = crux_similarities(
        card_ids=[card.id for card in cards if vectors[card.id].embedding_model == model], model=model
    )
    threshold = threshold_for(model)
    by_id = {card.id: card for card in cards}
    predictions: dict[int, list[Prediction]] = {}
    for prediction in Prediction.objects.filter(card__in=[c.id for c in cards]).select_related("persona"):
        predictions.setdefault(prediction.card_id, []).append(prediction)
    sides = people_sides(cards)
    cruxes = []
    for group in crux_clusters(points, threshold, similarities):
        group_cards = [by_id[p.id] for p in group]
        appearances = [
            Appearance(
                card_id=card.id,
                debate_id=str(card.debate_id),
                debate_topic=card.debate.topic,
                question=card.question,
                sides=_sides(card),
                resolved=card.resolved,
                resolution=card.resolution,
            )
            for card in group_cards
        ]
        debates = [card.debate for card in group_cards]
        cruxes.append(
            AtlasCrux(
                key=f"crux-{group_cards[0].id}",
                record=crux_record(appearances),
                debates=debates,
                predictions=[p for card in group_cards for p in predictions.get(card.id, [])],
                reruns=_reruns(debates),
                people=people_tracks(appearances, sides),
            )
        )
    cruxes.sort(key=lambda c: (-c.record.debates, -c.record.decisive_count))
    words = query.lower().split()
    if words:
        cruxes = [crux for crux in cruxes if _matches(crux, words)]
    return Atlas(cruxes=cruxes, query=query, threshold=threshold, embedding_model=model, cards=len(cards))
