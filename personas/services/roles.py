"""The plain role personas of a fixed-seat mode (the Analyst and Critic, the Architect and
Reviewer, ...), for a debate without a hand of personas. Which seats a mode has is its spec row's
(debates/modes.py); this layer, below the record, only makes the personas."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from personas.models import Persona


@dataclass(frozen=True)
class RoleSeat:
    """One seat of a fixed-seat mode, played by a plain persona when no hand is given."""

    key: str  # the persona's persona_id
    name: str
    personality: str
    tagline: str  # e.g. "The Analyst of an Analyst/Critic debate"


def role_personas(seats: Sequence[RoleSeat]) -> list[str]:
    """The persona ids of ``seats``' plain personas, in seat order; created the first time they are
    needed."""
    for seat in seats:
        Persona.objects.get_or_create(
            persona_id=seat.key,
            owner=None,  # shared, like the seed
            defaults=dict(
                name=seat.name,
                version="2026-11-24T00:00:00Z",
                tagline=seat.tagline,
                personality=seat.personality,
                bias="None declared.",
                stakes="Getting the answer right.",
                epistemology="Weighs evidence and reasoning, says what cannot be checked.",
                time_horizon="Whatever the question needs.",
                flip_conditions="A better argument or evidence.",
            ),
        )
    return [seat.key for seat in seats]
