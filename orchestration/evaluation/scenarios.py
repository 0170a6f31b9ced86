"""Scenario suites with known ground truth: who holds what, which cruxes are planted, where the
debate should land.

The beliefs are written into the personas' contracts, in plain words a real model reads as its
brief ("On "..." you say YES: ..."). With ``--model fake`` the scripted model (scripted.py) plays
each persona from that same contract, so the whole pipeline (speaking, the ledger, detection,
staging, rooms, cards, the regime) runs for real and only the words are scripted; with a real
model the same contracts drive the personas and the same ground truth scores the outcome.

A seed varies what a real run varies: when the held-back evidence comes out, how sure the
detector is, which findings it misses, how it words a dispute, which turns slip into a forbidden
phrase or echo their prompt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

YES, NO, NUANCED = "YES", "NO", "NUANCED"


@dataclass(frozen=True)
class View:
    question: str  # a yes/no question, ending with "?"
    side: str  # YES | NO | NUANCED
    reason: str  # a clause, no full stop


@dataclass(frozen=True)
class PersonaSpec:
    name: str
    topic_side: str
    views: tuple[View, ...]
    meaning: tuple[str, str] | None = None  # (term, what they mean by it)
    # (question, evidence, topic side after) : they change their mind when someone cites the evidence
    flip: tuple[str, str, str] | None = None
    # (evidence, after how many of their turns they cite it; odd seeds one turn later)
    holds: tuple[str, int] | None = None
    circling: bool = False  # comes back to the same point whatever is said
    forbidden: tuple[str, ...] = ("With all due respect",)

    @property
    def persona_id(self) -> str:
        return "eval-" + self.name.lower().replace(" ", "-")

    def contract(self) -> dict:
        """Persona fields: the beliefs are the brief, in words a model reads as one."""
        lines = [f"{self.name} argues from conviction.", f"Your answer to the debate question: {self.topic_side}."]
        lines.append("Your views:")
        lines += [f'- On "{view.question}" you say {view.side}: {view.reason}.' for view in self.views]
        if self.meaning:
            lines.append(f'- By "{self.meaning[0]}" you mean {self.meaning[1]}.')
        if self.flip:
            question, evidence, after = self.flip
            lines.append(
                f'- You would change your mind on "{question}" if someone cited {evidence}; then your answer '
                f"to the debate question would be {after}."
            )
        if self.holds:
            lines.append(
                f"- You hold back one piece of evidence, {self.holds[0]}, and cite it after {self.holds[1]} turns, "
                "or as soon as you are in a side room."
            )
        if self.circling:
            lines.append("- You keep coming back to one point, whatever is said.")
        return {
            "persona_id": self.persona_id,
            "name": self.name,
            "version": "2026-11-24T00:00:00Z",
            "personality": "\n".join(lines),
            "bias": "Sees what confirms their views.",
            "stakes": "Their reputation for being right.",
            "epistemology": "Trusts data over stories.",
            "time_horizon": "Years.",
            "flip_conditions": "Evidence they have not seen yet." if not self.flip else f"Seeing {self.flip[1]}.",
            "evidence_policy": {"acceptedSources": ["data"], "rejectedSources": ["anecdote"], "weighting": "Data."},
            "speech_patterns": ["Short declarative sentences."],
            "forbidden_phrases": list(self.forbidden),
        }


@dataclass(frozen=True)
class PlantedCrux:
    question: str
    keywords: tuple[str, ...]  # a card finds this crux when its question holds every keyword
    kind: str = "claim"  # the disagreement type a good card names


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    topic: str
    personas: tuple[PersonaSpec, ...]
    planted: tuple[PlantedCrux, ...]
    expect: str  # "agree" (a consensus is right) | "disagree" (a consensus would be fake)
    max_turns: int = 15
    seed: int = 0
    # How the scripted detector behaves under this seed.
    miss_rate: float = 0.0
    confidence: tuple[float, float] = (0.85, 0.97)
    slip_rate: float = 0.0  # chance a turn's first draft uses a forbidden phrase or echoes its prompt
    extra: dict = field(default_factory=dict)


Q_ASSETS = "Should central banks target asset prices?"
Q_GOLD = "Is gold a better hedge than bonds?"
Q_WAGES = "Do rate rises cut wage growth?"
Q_AUDIT = "Did quantitative easing raise inequality?"
Q_INFLATION = "Is inflation falling?"
Q_STIMULUS = "Was the 2021 stimulus too large?"
AUDIT = "the 2019 Fed distributional audit"


CORE = (
    Scenario(
        name="two_disagreements",
        description="Three personas; two planted disagreements, each between different people.",
        topic="Should monetary policy be tighter?",
        personas=(
            PersonaSpec(
                "Ada Hawk",
                YES,
                (View(Q_ASSETS, YES, "bubbles end in busts"), View(Q_GOLD, YES, "gold has no default risk")),
            ),
            PersonaSpec(
                "Bram Dove",
                NO,
                (View(Q_ASSETS, NO, "prices are not the bank's job"), View(Q_GOLD, YES, "bonds are inflating away")),
            ),
            PersonaSpec(
                "Cleo Quant",
                NO,
                (View(Q_ASSETS, YES, "asset prices feed consumer prices"), View(Q_GOLD, NO, "bonds pay a coupon")),
            ),
        ),
        planted=(PlantedCrux(Q_ASSETS, ("central bank", "asset price")), PlantedCrux(Q_GOLD, ("gold", "bond"))),
        expect="disagree",
        max_turns=30,
    ),
    Scenario(
        name="truly_agree",
        description="Two personas who agree on everything that comes up.",
        topic="Should central banks publish their forecasts?",
        personas=(
            PersonaSpec(
                "Dina Open",
                YES,
                (View(Q_WAGES, YES, "labour demand falls with credit"), View(Q_STIMULUS, YES, "demand outran supply")),
            ),
            PersonaSpec(
                "Eli Clear",
                YES,
                (View(Q_WAGES, YES, "hiring slows when money is dear"), View(Q_STIMULUS, YES, "savings piled up")),
            ),
        ),
        planted=(),
        expect="agree",
        max_turns=12,
    ),
    Scenario(
        name="flips_on_evidence",
        description="One planted disagreement; one persona holds evidence back (for a side room, or late), the "
        "other changes their mind on it.",
        topic="Was quantitative easing a mistake?",
        personas=(
            PersonaSpec(
                "Fay Skeptic",
                NO,
                (View(Q_AUDIT, NO, "asset owners and workers both gained"),),
                flip=(Q_AUDIT, AUDIT, YES),
            ),
            PersonaSpec("Gus Critic", YES, (View(Q_AUDIT, YES, "the top decile took the gains"),), holds=(AUDIT, 8)),
        ),
        planted=(PlantedCrux(Q_AUDIT, ("quantitative easing", "inequality"), kind="evidence"),),
        expect="agree",
        max_turns=18,
    ),
    Scenario(
        name="talking_past",
        description="Two personas who mean different things by one word.",
        topic="Is the economy overheating?",
        personas=(
            PersonaSpec(
                "Hal Prices",
                YES,
                (View(Q_INFLATION, YES, "the monthly index keeps slowing"),),
                meaning=("inflation", "consumer prices"),
            ),
            PersonaSpec(
                "Ivy Assets",
                NO,
                (View(Q_INFLATION, NO, "houses and shares keep climbing"),),
                meaning=("inflation", "asset prices"),
            ),
        ),
        planted=(PlantedCrux(Q_INFLATION, ("inflation", "falling"), kind="definition"),),
        expect="disagree",
    ),
    Scenario(
        name="circling",
        description="One persona circles back to the same point every turn; one planted disagreement.",
        topic="Is gold money?",
        personas=(
            PersonaSpec("Jon Loop", YES, (View(Q_GOLD, YES, "gold survived every currency"),), circling=True),
            PersonaSpec(
                "Kim Yield",
                NO,
                (
                    View(Q_GOLD, NO, "a hedge that pays nothing is a cost"),
                    View(Q_WAGES, NO, "wages follow productivity"),
                ),
            ),
        ),
        planted=(PlantedCrux(Q_GOLD, ("gold", "bond")),),
        expect="disagree",
        max_turns=18,
    ),
)
SCENARIOS = {scenario.name: scenario for scenario in CORE}


SUITES = {"core": [scenario.name for scenario in CORE]}


def scenario(name: str, seed: int = 0) -> Scenario:
    """The named scenario under a seed: seed 0 is the clean run; a later seed adds noise (the same
    for every scenario under one seed) and moves held-back evidence one turn on odd seeds."""
    clean = SCENARIOS[name]
    if not seed:
        return clean
    rng = random.Random(seed)
    personas = tuple(
        replace(persona, holds=(persona.holds[0], persona.holds[1] + seed % 2)) if persona.holds else persona
        for persona in clean.personas
    )
    return replace(
        clean,
        personas=personas,
        seed=seed,
        miss_rate=round(rng.uniform(0.05, 0.2), 2),
        confidence=(round(rng.uniform(0.7, 0.8), 2), 0.97),
        slip_rate=round(rng.uniform(0.1, 0.25), 2),
    )


def suite(name: str, seeds: list[int]) -> list[Scenario]:
    """Every scenario of the suite under each seed."""
    return [scenario(scenario_name, seed) for scenario_name in SUITES[name] for seed in seeds]
