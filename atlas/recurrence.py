"""What a recurring crux's cards say together: who took which side in each debate, who moved
between debates, how often it was the crux a debate ended on. Plain Python: no Django.

"Decisive": the card was left open with one persona on YES and another on NO, the split a debate's
verdict turns on (debates/regime.py: an open split makes it polarized or a partial agreement); a
resolved card, or one whose sides differ only by a NUANCED, did not decide where the debate landed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from atlas.clustering import crux_heading

SIDES = ("YES", "NO", "NUANCED")


@dataclass(frozen=True)
class Appearance:
    """One card of the crux: the debate it came from and each persona's side on it."""

    card_id: int
    debate_id: str
    debate_topic: str
    question: str
    sides: dict[str, str]  # persona name -> YES | NO | NUANCED (anything else is shown as "?")
    resolved: bool
    resolution: str = ""

    @property
    def decisive(self) -> bool:
        return card_decisive(self.sides, resolved=self.resolved)


def card_decisive(sides: dict[str, str], *, resolved: bool) -> bool:
    values = {str(side).upper() for side in sides.values()}
    return not resolved and {"YES", "NO"} <= values


@dataclass(frozen=True)
class Shift:
    persona: str
    path: tuple[str, ...]  # the persona's side in each debate it took one, oldest first

    def __str__(self) -> str:
        return f"{self.persona}: {' → '.join(self.path)}"


@dataclass
class CruxRecord:
    question: str  # the earliest card's wording, as a heading (atlas.clustering.crux_heading)
    appearances: list[Appearance]  # oldest debate first
    personas: list[str] = field(default_factory=list)  # everyone who took a side, in order of first appearance
    shifts: list[Shift] = field(default_factory=list)

    @property
    def debates(self) -> int:
        return len({a.debate_id for a in self.appearances})

    @property
    def decisive_count(self) -> int:
        return sum(a.decisive for a in self.appearances)

    @property
    def resolved_count(self) -> int:
        return sum(a.resolved for a in self.appearances)

    def side(self, persona: str, debate_id: str) -> str:
        for appearance in self.appearances:
            if appearance.debate_id == debate_id and persona in appearance.sides:
                return side_label(appearance.sides[persona])
        return ""


def side_label(side: str) -> str:
    side = str(side or "").upper()
    return side if side in SIDES else "?"


def crux_record(appearances: Sequence[Appearance]) -> CruxRecord:
    """``appearances`` oldest first. A shift is a persona whose side differs from one debate of the
    crux to a later one (the same side throughout is no shift)."""
    personas: list[str] = []
    for appearance in appearances:
        personas += [name for name in appearance.sides if name not in personas]
    shifts = []
    for persona in personas:
        path = tuple(side_label(a.sides[persona]) for a in appearances if persona in a.sides)
        if len(set(path)) > 1:
            shifts.append(Shift(persona, path))
    question = crux_heading(appearances[0].question) if appearances else ""
    return CruxRecord(question=question, appearances=list(appearances), personas=personas, shifts=shifts)
