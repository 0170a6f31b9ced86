"""Your faultlines: where each person of an owner's debates (the owner and the members they invited)
stood on a recurring crux, debate after debate, and where they moved. Plain Python: no Django."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from atlas.recurrence import Appearance


@dataclass(frozen=True)
class Stance:
    debate_id: str
    debate_topic: str
    side: str  # YES | NO | NUANCED
    moved: bool  # not the side this person took the last time the crux came up


@dataclass
class PersonTrack:
    name: str
    stances: list[Stance] = field(default_factory=list)  # oldest debate first

    @property
    def moves(self) -> int:
        return sum(1 for stance in self.stances if stance.moved)


def people_tracks(appearances: Sequence[Appearance], sides: Mapping[int, Mapping[str, str]]) -> list[PersonTrack]:
    """``appearances``: one crux's cards, oldest debate first; ``sides``: card id -> {person: side}.
    A person's track holds each appearance they took a side on; a side differing from their
    previous one on this crux is a move. People by name."""
    tracks: dict[str, PersonTrack] = {}
    for appearance in appearances:
        for name, side in sorted((sides.get(appearance.card_id) or {}).items()):
            track = tracks.setdefault(name, PersonTrack(name=name))
            moved = bool(track.stances) and track.stances[-1].side != side
            track.stances.append(Stance(appearance.debate_id, appearance.debate_topic, side, moved))
    return [tracks[name] for name in sorted(tracks)]
