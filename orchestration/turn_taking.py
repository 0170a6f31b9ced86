"""Who speaks next in the main channel. Pure: no Django, no model calls.

The next speaker is whoever was just addressed, else whoever has most at stake in the live
disputes, else whoever has waited longest; never the person who just spoke. Nobody is left out:
two disputants who keep addressing each other would otherwise hold the floor (the evaluation
harness's three-persona scenario kept a third persona silent for 14 turns at a stretch), so
whoever has been silent for SILENCE_ROUNDS rounds speaks next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ADDRESSED_WEIGHT = 3.0
STAKE_WEIGHT = 2.0
WAIT_CAP = 4
SILENCE_ROUNDS = 1  # a round: one message per seat


@dataclass(frozen=True)
class Seat:
    persona_id: int
    name: str
    seat: int


def _name_patterns(seat: Seat) -> list[str]:
    # "The Macro Trader" is addressed as "Macro Trader" too; "Ada Hardmoney" as "Ada".
    names = {seat.name, re.sub(r"^the\s+", "", seat.name, flags=re.IGNORECASE)}
    first = seat.name.split()[0]
    if len(first) >= 3 and first.lower() not in {"the", "dr.", "mrs.", "miss"}:
        names.add(first)
    return [rf"(?<!\w){re.escape(name)}(?!\w)" for name in names]


def addressed_in(text: str, seats: list[Seat], speaker_id: int) -> list[int]:
    return [
        seat.persona_id
        for seat in seats
        if seat.persona_id != speaker_id
        and any(re.search(pattern, text, re.IGNORECASE) for pattern in _name_patterns(seat))
    ]


def choose_speaker(*, seats: list[Seat], history: list[tuple[int, str]], stakes: dict[int, float]) -> Seat:
    """history: (persona_id, text) of main-channel messages and passes, oldest first."""
    if not history:
        return seats[0]
    last_speaker, last_text = history[-1]
    addressed = set(addressed_in(last_text, seats, last_speaker))

    def waited(seat: Seat) -> int:
        for distance, (persona_id, _) in enumerate(reversed(history)):
            if persona_id == seat.persona_id:
                return distance
        return len(history)

    def score(seat: Seat) -> tuple[float, int]:
        value = (
            ADDRESSED_WEIGHT * (seat.persona_id in addressed)
            + STAKE_WEIGHT * stakes.get(seat.persona_id, 0.0)
            + min(waited(seat), WAIT_CAP)
        )
        return value, -seat.seat

    candidates = [seat for seat in seats if seat.persona_id != last_speaker] or seats
    silent = [seat for seat in candidates if waited(seat) >= SILENCE_ROUNDS * len(seats)]
    if silent:
        return max(silent, key=lambda seat: (waited(seat), -seat.seat))
    return max(candidates, key=score)


def interjection_answerer(
    *, seats: list[Seat], text: str, to_persona_id: int | None, history: list[tuple[int, str]], stakes: dict[int, float]
) -> Seat:
    """Who answers the owner's interjection next: the persona it is addressed to; else the one it
    names; else the most concerned (most at stake in the live disputes); else whoever has waited
    longest. The owner is not a seat, so whoever spoke last may answer too."""
    by_id = {seat.persona_id: seat for seat in seats}
    if to_persona_id in by_id:
        return by_id[to_persona_id]
    named = addressed_in(text, seats, speaker_id=-1)
    candidates = [by_id[persona_id] for persona_id in named] or seats

    def waited(seat: Seat) -> int:
        for distance, (persona_id, _) in enumerate(reversed(history)):
            if persona_id == seat.persona_id:
                return distance
        return len(history)

    return max(candidates, key=lambda seat: (stakes.get(seat.persona_id, 0.0), waited(seat), -seat.seat))
