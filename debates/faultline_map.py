"""The faultline map of one debate: per crux (its own question first, then each crux card as the
results page numbers them), the personas' sides beside the people's, then the people's camps and
the crux that splits the two largest most (debates/faultlines.py).

Who sees names is the audience's: the owner and the members do; anyone else (a share link) gets the
counts alone, and camps by their size. People's sides are read here, for people: no persona prompt
and no memory fact is built from them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from debates.faultlines import Split, camps, splitting_crux
from debates.models import Debate, DebateMember, PersonSide
from debates.state import DebateView

SIDES = ("YES", "NO", "NUANCED")
SIDE_CHOICES = PersonSide.Side.choices  # the form's buttons: (value, word)


@dataclass
class PersonStand:
    name: str
    side: str
    because: str = ""
    changes: int = 0  # how many times this person changed their side here before this one


@dataclass
class CruxRow:
    number: int  # 0: the debate's own question; 1, 2, ...: the crux cards in the results page's order
    card_id: int | None
    question: str
    suit: str = ""
    personas: list[tuple[str, str]] = field(default_factory=list)  # (name, side)
    people: list[PersonStand] = field(default_factory=list)  # empty for an audience that sees no names
    counts: dict[str, int] = field(default_factory=dict)  # side -> how many people took it
    mine: PersonStand | None = None  # the viewer's own side, for their form

    @property
    def counts_line(self) -> str:
        return side_counts_line(self.counts)

    @property
    def key(self) -> str:
        return "question" if self.card_id is None else f"card-{self.card_id}"

    @property
    def label(self) -> str:
        return "The question" if self.number == 0 else f"Crux {self.number}"


@dataclass
class Camp:
    size: int
    members: list[str]  # empty for an audience that sees no names
    # What would move them: (crux label, name, sentence), their own words
    falsifiers: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class FaultlineMap:
    debate_id: str
    rows: list[CruxRow]
    camps: list[Camp]
    split: Split | None
    split_row: CruxRow | None
    names: bool  # this audience sees who took which side
    people: int  # how many people took at least one side

    def row(self, number: int) -> CruxRow | None:
        return next((row for row in self.rows if row.number == number), None)


def crux_rows(*, debate: Debate, view: DebateView) -> list[CruxRow]:
    """The cruxes a person can take a side on, numbered as the results page numbers them."""
    question = CruxRow(number=0, card_id=None, question=view.topic or debate.topic)
    question.personas = [
        (position.get("name", ""), position["side"])
        for position in view.positions.values()
        if position.get("side") in SIDES
    ]
    rows = [question]
    for number, card in enumerate(view.cards, start=1):
        row = CruxRow(number=number, card_id=card.id, question=card.question, suit=card.suit)
        row.personas = [(p["name"], p["position"]) for p in card.positions if p.get("position") in SIDES]
        rows.append(row)
    return rows


def people_on_team(*, debate: Debate) -> dict[int, str]:
    """user id -> user name, for the owner and today's members (a removed member's sides stay
    stored but are shown nowhere)."""
    team = dict(DebateMember.objects.filter(debate=debate).values_list("user_id", "user__username"))
    if debate.owner_id is not None:
        team[debate.owner_id] = debate.owner.username
    return team


def current_sides(*, debate: Debate) -> dict[tuple[int, int | None], tuple[PersonSide, int]]:
    """(user id, card id) -> (the latest side, how many earlier ones it replaced)."""
    latest: dict[tuple[int, int | None], tuple[PersonSide, int]] = {}
    for side in PersonSide.objects.filter(debate=debate).order_by("created_at", "id"):
        key = (side.user_id, side.card_id)
        earlier = latest[key][1] + 1 if key in latest else 0
        latest[key] = (side, earlier)
    return latest


def faultline_map_of(*, debate: Debate, view: DebateView, names: bool, viewer_id: int | None = None) -> FaultlineMap:
    """names: this audience sees who took which side (the owner and members do); viewer_id: whose
    own sides fill the forms."""
    rows = crux_rows(debate=debate, view=view)
    by_card = {row.card_id: row for row in rows}
    team = people_on_team(debate=debate)
    answers: dict[str, dict[int, str]] = {}
    for (user_id, card_id), (side, earlier) in current_sides(debate=debate).items():
        row = by_card.get(card_id)
        if row is None or user_id not in team:
            continue
        name = team[user_id]
        row.counts[side.side] = row.counts.get(side.side, 0) + 1
        if user_id == viewer_id:
            row.mine = PersonStand(name=name, side=side.side, because=side.because, changes=earlier)
        if names:
            row.people.append(PersonStand(name=name, side=side.side, because=side.because, changes=earlier))
        answers.setdefault(name, {})[row.number] = side.side
    for row in rows:
        row.people.sort(key=lambda stand: stand.name)
    found = camps(answers)
    split = splitting_crux(answers, found, cruxes=[row.number for row in rows])
    return FaultlineMap(
        debate_id=str(debate.id),
        rows=rows,
        camps=[_camp(members, rows, names=names) for members in found],
        split=split,
        split_row=next((row for row in rows if split and row.number == split.crux), None),
        names=names,
        people=len(answers),
    )


def _camp(members: list[str], rows: list[CruxRow], *, names: bool) -> Camp:
    if not names:
        return Camp(size=len(members), members=[])
    falsifiers = [
        (row.label, stand.name, stand.because)
        for row in rows
        for stand in row.people
        if stand.because and stand.name in members
    ]
    return Camp(size=len(members), members=members, falsifiers=falsifiers)


def side_counts_line(counts: dict[str, int]) -> str:
    """ "2 yes, 1 nuanced" ("" for nobody)."""
    tally = Counter(counts)
    return ", ".join(f"{tally[side]} {side.lower()}" for side in SIDES if tally[side])
