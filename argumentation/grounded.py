"""The grounded labelling, computed on integer-indexed arguments.

The same fixed point serves two callers: the whole framework (nothing blocked)
and a region of it during the SCC-recursive search, where `blocked` arguments
are attacked from outside the region by an undecided argument and so can never
be IN, but can still be OUT.
"""

from collections.abc import Collection, Sequence


def grounded_in_and_out(
    region: Collection[int],
    attackers: Sequence[Sequence[int]],
    targets: Sequence[Sequence[int]],
    blocked: Collection[int] = (),
) -> tuple[set[int], set[int]]:
    """Return (IN, OUT) of the least fixed point inside `region`.

    Attackers outside the region count as OUT, except that a blocked argument
    behaves as if it had one extra attacker that never becomes OUT.
    Linear in the number of attacks inside the region.
    """
    inside = region if isinstance(region, (set, frozenset)) else set(region)
    undefeated_attackers = {}
    ready = []
    for argument in inside:
        count = sum(1 for attacker in attackers[argument] if attacker in inside)
        if argument in blocked:
            count += 1
        undefeated_attackers[argument] = count
        if count == 0:
            ready.append(argument)

    accepted: set[int] = set()
    defeated: set[int] = set()
    for argument in ready:  # `ready` grows while we walk it
        accepted.add(argument)
        for target in targets[argument]:
            if target in defeated or target not in undefeated_attackers:
                continue
            defeated.add(target)
            for next_target in targets[target]:
                if next_target in undefeated_attackers:
                    undefeated_attackers[next_target] -= 1
                    if undefeated_attackers[next_target] == 0:
                        ready.append(next_target)
    return accepted, defeated
