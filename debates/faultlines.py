"""Where a team splits: the camps people fall into by the sides they took, and the crux that
splits the two largest camps most. Pure Python, no Django: the results page, the exports and
``manage.py faultlines`` all read these two functions.

A side counts +1 (YES), -1 (NO) or 0 (NUANCED); a crux someone did not answer is unknown, never 0.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

SIDE_VALUE = {"YES": 1, "NO": -1, "NUANCED": 0}
# Two people agree on "most" cruxes when they agree on more than this share of those both answered.
AGREEMENT_THRESHOLD = 0.5

Sides = Mapping[str, Mapping[Hashable, str]]  # person -> crux -> "YES" | "NO" | "NUANCED"


def share_a_camp(first: Mapping[Hashable, str], second: Mapping[Hashable, str]) -> bool:
    """Two people share a camp when they agree (the same side, NUANCED only with NUANCED) on more
    than half (``AGREEMENT_THRESHOLD``) of the cruxes both answered. Half exactly is not most, and
    two people with no crux answered in common share nothing."""
    both = [crux for crux in first if crux in second]
    if not both:
        return False
    agreed = sum(1 for crux in both if SIDE_VALUE[first[crux]] == SIDE_VALUE[second[crux]])
    return agreed / len(both) > AGREEMENT_THRESHOLD


def camps(sides: Sides) -> list[list[str]]:
    """The camps of the people in ``sides``: the groups that ``share_a_camp`` links, taken
    transitively (single linkage: someone who shares a camp with anyone in a group is in it).
    Someone linked to nobody is a camp of one; someone who answered nothing is in no camp.

    Largest camp first; camps of one size by their alphabetically first member; members by name.
    """
    people = sorted(person for person, answers in sides.items() if answers)
    camp_of = {person: index for index, person in enumerate(people)}
    for index, person in enumerate(people):
        for other in people[index + 1 :]:
            if camp_of[person] != camp_of[other] and share_a_camp(sides[person], sides[other]):
                merged, into = camp_of[other], camp_of[person]
                for someone, camp in camp_of.items():
                    if camp == merged:
                        camp_of[someone] = into
    groups: dict[int, list[str]] = {}
    for person in people:
        groups.setdefault(camp_of[person], []).append(person)
    return sorted(groups.values(), key=lambda members: (-len(members), members[0]))


@dataclass(frozen=True)
class Split:
    """The crux whose mean side differs most between the two largest camps."""

    crux: Hashable
    difference: float  # |mean of the first camp - mean of the second|, from 0 to 2
    first_mean: float
    second_mean: float


def _mean(sides: Sides, members: Sequence[str], crux: Hashable) -> float | None:
    values = [SIDE_VALUE[sides[person][crux]] for person in members if crux in sides[person]]
    return sum(values) / len(values) if values else None


def splitting_crux(sides: Sides, camp_list: Sequence[Sequence[str]], cruxes: Sequence[Hashable]) -> Split | None:
    """Of ``cruxes`` (in their order), the one whose mean side differs most between the first two
    camps of ``camp_list`` (the two largest, as ``camps`` orders them), counting in each camp only
    those who answered it. A tie goes to the crux that comes first; None when there are fewer than
    two camps, or no crux that both camps answered differs between them at all."""
    if len(camp_list) < 2:
        return None
    first, second = camp_list[0], camp_list[1]
    best: Split | None = None
    for crux in cruxes:
        first_mean, second_mean = _mean(sides, first, crux), _mean(sides, second, crux)
        if first_mean is None or second_mean is None:
            continue
        difference = abs(first_mean - second_mean)
        if difference > 0 and (best is None or difference > best.difference):
            best = Split(crux=crux, difference=difference, first_mean=first_mean, second_mean=second_mean)
    return best
