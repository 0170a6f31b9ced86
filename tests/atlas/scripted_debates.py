"""Three debates of one owner, run through the real orchestrator with the evaluation's scripted
model (orchestration/evaluation/scripted.py plays each persona from its contract): a crux planted
in all three, worded differently each time, and one unrelated crux in the third. Each debate's
personas are rows of their own (a contract holds that debate's views), under the same names, so
the atlas follows "Ada Hawk" across debates; the first debate's are dealt from the owner's deck,
with a fourth persona on the bench to swap in."""

from __future__ import annotations

from orchestration.evaluation.harness import _model
from orchestration.evaluation.scenarios import NO, YES, PersonaSpec, PlantedCrux, Scenario, View
from orchestration.run import debate_run
from personas.models import Deck, Persona

SCARCITY = (
    "Does scarcity create value?",
    "Is an asset valuable because it is rare?",
    "Is scarcity what gives an asset its value?",
)
UNRELATED = "Will AI replace most programmers within a decade?"
BENCH = "Dan Fourth"


def _scenario(
    number: int, topic: str, specs: tuple[PersonaSpec, ...], planted: tuple[str, ...], max_turns: int = 14
) -> Scenario:
    return Scenario(
        name=f"atlas_{number}",
        description="A debate of the atlas's browser test.",
        topic=topic,
        personas=specs,
        planted=tuple(PlantedCrux(q, ()) for q in planted),
        expect="disagree",
        max_turns=max_turns,
    )


SCENARIOS = (
    _scenario(
        1,
        "Will Bitcoin replace gold as a store of value?",
        (
            PersonaSpec("Ada Hawk", YES, (View(SCARCITY[0], YES, "a fixed supply is the point"),)),
            PersonaSpec("Bram Dove", NO, (View(SCARCITY[0], NO, "use creates value, not rarity"),)),
        ),
        (SCARCITY[0],),
    ),
    _scenario(
        2,
        "Are rare sneakers a sound investment?",
        (
            PersonaSpec("Ada Hawk", YES, (View(SCARCITY[1], YES, "collectors pay for rarity"),)),
            PersonaSpec("Cleo Quant", NO, (View(SCARCITY[1], NO, "rare junk is still junk"),)),
        ),
        (SCARCITY[1],),
    ),
    _scenario(
        3,
        "Should a software startup hold gold in its treasury?",
        (
            # Two disputes between two different pairs (a pair argues one room at a time).
            PersonaSpec("Ada Hawk", NO, (View(UNRELATED, NO, "tools change jobs, they do not end them"),)),
            PersonaSpec("Bram Dove", YES, (View(SCARCITY[2], YES, "I have come round on rarity"),)),
            PersonaSpec(
                "Cleo Quant",
                NO,
                (View(SCARCITY[2], NO, "demand sets prices"), View(UNRELATED, YES, "models already write code")),
            ),
        ),
        (SCARCITY[2], UNRELATED),
        max_turns=30,  # two disputes to find, as the core suite's two_disagreements
    ),
)


def _persona(owner, number: int, spec: PersonaSpec) -> Persona:
    fields = spec.contract()
    del fields["persona_id"]
    handle = spec.name.lower().replace(" ", "-")
    return Persona.objects.create(persona_id=f"{owner.username}-{number}-{handle}", owner=owner, **fields)


def atlas_debates_run(owner) -> list:
    """The three debates, run to the end, oldest first."""
    from debates.services.lifecycle import DebateOptions, debate_create

    debates = []
    for number, scenario in enumerate(SCENARIOS, start=1):
        personas = [_persona(owner, number, spec) for spec in scenario.personas]
        deck = None
        if number == 1:
            bench = _persona(owner, number, PersonaSpec(BENCH, NO, (View(SCARCITY[0], NO, "value is use"),)))
            deck = Deck.objects.create(slug=f"{owner.username}-atlas", name="Atlas test deck", owner=owner)
            deck.personas.set([*personas, bench])
        with _model("fake", scenario, personas):  # the scripted model plays each from its spec
            debate = debate_create(
                owner=owner,
                topic=scenario.topic,
                personas=personas,
                deck=deck,
                max_turns=scenario.max_turns,
                options=DebateOptions(length="short"),
            )
            debates.append(debate_run(debate_id=debate.id))
    return debates
