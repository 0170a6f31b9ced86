"""Exact enumeration of complete, preferred and stable extensions.

SCC-recursive decomposition (after Baroni, Giacomin and Guida, 2005), worked
out on labellings so that one scheme serves all three semantics:

1. Every complete labelling agrees with the grounded labelling on the
   arguments the grounded labelling decides, so only its UNDEC part is
   searched.
2. Parts of that UNDEC region that no attack connects are independent: the
   extensions are the cross product of the parts' extensions.
3. Inside a connected part, the strongly connected components are decided in
   an order where attackers come first.  A component's labels depend only on
   the labels of its outside attackers: arguments attacked by an IN outside
   attacker are OUT, arguments attacked by an UNDEC outside attacker can no
   longer be IN ("blocked").  What is left of the component is solved again
   from step 1, recursively, and a component that stays strongly connected is
   handed to the labelling search in scc_search.py.

Why this is exact for preferred semantics: a complete labelling is preferred
iff, in every component, its restriction is IN-maximal among the labellings
of that component allowed by the labels upstream.  (If it were not, swapping
in the larger component labelling keeps every IN and OUT argument downstream
legal, giving an admissible set strictly larger than a preferred one.
Conversely, two complete labellings that agree upstream of the first
component where they differ compare there.)  For complete and stable
semantics the conditions are local, so the decomposition is exact by
construction.

There is no cap anywhere: the number of extensions can be exponential, which
is why `extensions()` is lazy.
"""

from collections.abc import Iterable, Iterator, Sequence

from .decomposition import strongly_connected_components, weakly_connected_components
from .grounded import grounded_in_and_out
from .scc_search import extensions_in_strong_region
from .semantics import Semantics

_IN, _OUT, _UNDEC = 1, 2, 3


class ExtensionEnumerator:
    """Enumerates extensions of one framework given as attacker/target lists."""

    def __init__(
        self,
        attackers: Sequence[Sequence[int]],
        targets: Sequence[Sequence[int]],
        semantics: Semantics,
    ) -> None:
        if semantics is Semantics.GROUNDED:
            raise ValueError("the grounded extension is computed directly, not enumerated")
        self._attackers = attackers
        self._targets = targets
        self._semantics = semantics
        # Results per (region, blocked): the same component is often reached
        # with the same upstream labels along many branches.
        # Everything is lazy and shared (_Replayable), so asking for one
        # extension never enumerates a whole component.
        # Two tables: a region whose undecided part is one SCC hands that SCC,
        # under the same key, to the labelling search.
        self._solved: dict[tuple[frozenset[int], frozenset[int]], _Replayable] = {}
        self._searched: dict[tuple[frozenset[int], frozenset[int]], _Replayable] = {}

    def extensions(self) -> Iterator[frozenset[int]]:
        """All extensions of the whole framework, lazily."""
        everything = frozenset(range(len(self._attackers)))
        return self._combined(everything, frozenset())

    def _combined(self, region: frozenset[int], blocked: frozenset[int]) -> Iterator[frozenset[int]]:
        accepted, parts = self._decompose(region, blocked)
        for combination in _lazy_product(parts):
            yield accepted.union(*combination)

    def _region_extensions(self, region: frozenset[int], blocked: frozenset[int]) -> "_Replayable":
        key = (region, blocked)
        if key not in self._solved:
            self._solved[key] = _Replayable(self._combined(region, blocked))
        return self._solved[key]

    def _decompose(self, region: frozenset[int], blocked: frozenset[int]) -> tuple[frozenset[int], list["_Replayable"]]:
        """Grounded-decided IN arguments, and one lazy result stream per independent part."""
        attackers, targets = self._attackers, self._targets
        accepted, defeated = grounded_in_and_out(region, attackers, targets, blocked)
        undecided = region - accepted - defeated
        if not undecided:
            return frozenset(accepted), []
        components = strongly_connected_components(undecided, targets)
        component_of = {argument: position for position, component in enumerate(components) for argument in component}
        parts: list[_Replayable] = []
        for group in weakly_connected_components(undecided, attackers, targets):
            group_components = sorted({component_of[argument] for argument in group})
            if len(group_components) == 1:
                parts.append(self._strong_region_extensions(group, blocked & group))
            else:
                parts.append(
                    _Replayable(
                        self._extensions_along_components(
                            [components[position] for position in group_components],
                            group_components,
                            component_of,
                            blocked,
                        )
                    )
                )
        return frozenset(accepted), parts

    def _strong_region_extensions(self, region: Iterable[int], blocked: frozenset[int]) -> "_Replayable":
        key = (frozenset(region), blocked)
        if key not in self._searched:
            self._searched[key] = _Replayable(
                extensions_in_strong_region(sorted(region), blocked, self._attackers, self._targets, self._semantics)
            )
        return self._searched[key]

    def _extensions_along_components(
        self,
        components: list[list[int]],
        component_ids: list[int],
        component_of: dict[int, int],
        blocked: frozenset[int],
    ) -> Iterator[frozenset[int]]:
        """Depth-first over the components in attack order, one choice per level."""
        attackers = self._attackers
        label: dict[int, int] = {}
        depth = len(components)

        def choices_at(level: int) -> tuple[_Replayable, set[int]]:
            own_id = component_ids[level]
            defeated: set[int] = set()
            remaining = []
            newly_blocked = []
            for argument in components[level]:
                attacked_by_undecided = argument in blocked
                attacked_by_accepted = False
                for attacker in attackers[argument]:
                    attacker_component = component_of.get(attacker)
                    # Attackers outside the undecided region are OUT already.
                    if attacker_component is None or attacker_component == own_id:
                        continue
                    attacker_label = label[attacker]
                    if attacker_label == _IN:
                        attacked_by_accepted = True
                        break
                    if attacker_label == _UNDEC:
                        attacked_by_undecided = True
                if attacked_by_accepted:
                    defeated.add(argument)
                else:
                    remaining.append(argument)
                    if attacked_by_undecided:
                        newly_blocked.append(argument)
            if not remaining:
                return _Replayable([frozenset()]), defeated
            region_choices = self._region_extensions(frozenset(remaining), frozenset(newly_blocked))
            return region_choices, defeated

        def record_labels(level: int, chosen: frozenset[int], defeated: set[int]) -> None:
            for argument in components[level]:
                if argument in chosen:
                    label[argument] = _IN
                elif argument in defeated or any(a in chosen for a in attackers[argument]):
                    label[argument] = _OUT
                else:
                    label[argument] = _UNDEC

        choices: list[tuple[_Replayable, set[int]]] = [choices_at(0)]
        positions = [0]
        chosen: list[frozenset[int]] = []
        while positions:
            level = len(positions) - 1
            options, defeated = choices[level]
            option = options.get(positions[level])
            if option is None:
                choices.pop()
                positions.pop()
                if positions:
                    positions[-1] += 1
                continue
            del chosen[level:]
            chosen.append(option)
            record_labels(level, option, defeated)
            if level == depth - 1:
                yield frozenset().union(*chosen)
                positions[level] += 1
            else:
                choices.append(choices_at(level + 1))
                positions.append(0)


class _Replayable:
    """An iterator's items, pulled on demand and kept for later passes."""

    def __init__(self, items: Iterable[frozenset[int]]) -> None:
        self._source = iter(items)
        self._seen: list[frozenset[int]] = []
        self._exhausted = False

    def get(self, position: int) -> frozenset[int] | None:
        while len(self._seen) <= position and not self._exhausted:
            try:
                self._seen.append(next(self._source))
            except StopIteration:
                self._exhausted = True
        return self._seen[position] if position < len(self._seen) else None


def _lazy_product(replayable: list[_Replayable]) -> Iterator[tuple[frozenset[int], ...]]:
    """itertools.product without consuming its inputs up front.

    The first combination needs only the first item of each part, so asking
    for one extension does not enumerate every part in full.
    """
    parts = replayable
    positions = [0] * len(parts)
    current = []
    for part in replayable:
        first = part.get(0)
        if first is None:
            return
        current.append(first)
    while True:
        yield tuple(current)
        # Odometer: advance the last part, carrying into earlier ones.
        level = len(parts) - 1
        while level >= 0:
            positions[level] += 1
            item = replayable[level].get(positions[level])
            if item is not None:
                current[level] = item
                break
            positions[level] = 0
            current[level] = replayable[level].get(0)
            level -= 1
        if level < 0:
            return
