"""Labelling search inside one strongly connected region.

This is the base case of the SCC-recursive enumeration (see enumeration.py).
The region's outside attackers are all OUT, except that `blocked` arguments
have an undecided outside attacker: they can never be IN (they are OUT if an
IN argument inside attacks them, UNDEC otherwise).

The search decides, argument by argument, "IN" or "not IN" and propagates the
consequences of the complete-labelling conditions (in the style of Nofal,
Atkinson and Dunne's labelling algorithms):

  IN        accepted; its targets become OUT, its attackers MUST_OUT
  OUT       attacked by an IN argument
  EXCLUDED  chosen not IN; ends UNDEC unless an IN argument attacks it later
  MUST_OUT  not IN and must still end OUT (it attacks an IN argument, or the
            semantics is stable, where nothing may stay UNDEC)
  BLANK     undecided

Every leaf is a complete labelling of the region (for stable: one without
UNDEC), and every such labelling is reached exactly once.  For preferred
semantics the IN branch is explored first, so a leaf can never be a strict
superset of an earlier one; a leaf that is a subset of an earlier maximal one
is dropped, which leaves exactly the IN-maximal labellings.
"""

from collections.abc import Collection, Iterable, Iterator, Sequence

from .semantics import Semantics

BLANK = 0
IN = 1
OUT = 2
EXCLUDED = 3
MUST_OUT = 4

_NO_ESCAPE = -1


def extensions_in_strong_region(
    region: Sequence[int],
    blocked: Collection[int],
    attackers: Sequence[Sequence[int]],
    targets: Sequence[Sequence[int]],
    semantics: Semantics,
) -> Iterator[frozenset[int]]:
    """IN-sets of the region's complete, preferred or stable labellings, as found.

    Lazy: for preferred semantics a leaf that survives is final, because no
    later leaf can be a strict superset of it.
    """
    local_of = {argument: position for position, argument in enumerate(region)}
    local_attackers = [tuple(local_of[a] for a in attackers[argument] if a in local_of) for argument in region]
    local_targets = [tuple(local_of[t] for t in targets[argument] if t in local_of) for argument in region]
    is_blocked = [argument in blocked for argument in region]
    stable = semantics is Semantics.STABLE
    preferred = semantics is Semantics.PREFERRED
    not_in = MUST_OUT if stable else EXCLUDED
    size = len(region)

    # Try well-connected arguments first: deciding them propagates furthest.
    branching_order = sorted(range(size), key=lambda a: -(len(local_attackers[a]) + len(local_targets[a])))

    def propagate(labels: list[int], changed: list[int]) -> bool:
        """Apply the consequences of the labels in `changed`; False on conflict."""

        def check(argument: int) -> bool:
            label = labels[argument]
            if label in (IN, OUT):
                return True
            blank_attackers = 0
            last_blank = -1
            undefeated = is_blocked[argument]
            for attacker in local_attackers[argument]:
                attacker_label = labels[attacker]
                if attacker_label == IN:
                    return True  # it becomes OUT once that attacker is processed
                if attacker_label != OUT:
                    undefeated = True
                    if attacker_label == BLANK:
                        blank_attackers += 1
                        last_blank = attacker
            if label == BLANK:
                if not undefeated:  # defended, so a complete labelling has it IN
                    labels[argument] = IN
                    changed.append(argument)
                return True
            if label == EXCLUDED:
                return undefeated  # defended but left out: not complete
            # MUST_OUT: some attacker still has to come IN.
            if blank_attackers == 0:
                return False
            if blank_attackers == 1:
                labels[last_blank] = IN
                changed.append(last_blank)
            return True

        while changed:
            argument = changed.pop()
            label = labels[argument]
            if label == IN:
                if is_blocked[argument]:
                    return False
                for attacker in local_attackers[argument]:
                    attacker_label = labels[attacker]
                    if attacker_label == IN:
                        return False
                    if attacker_label in (BLANK, EXCLUDED):
                        labels[attacker] = MUST_OUT
                        changed.append(attacker)
                for target in local_targets[argument]:
                    target_label = labels[target]
                    if target_label == IN:
                        return False
                    if target_label != OUT:
                        labels[target] = OUT
                        changed.append(target)
            else:
                # OUT may make its targets defended; any non-IN label removes
                # a candidate defender of the MUST_OUT arguments it attacks.
                if label != OUT and not check(argument):
                    return False
                for target in local_targets[argument]:
                    if not check(target):
                        return False
        return True

    initial = [BLANK] * size
    for argument in range(size):
        if is_blocked[argument] or argument in local_attackers[argument]:
            initial[argument] = not_in
    # Found IN-sets as bitmasks (bit a set = local argument a IN): subset
    # tests against every found set run at each node, so they must be cheap.
    found: list[int] = []

    def accepted_mask(labels: list[int]) -> int:
        mask = 0
        for argument in range(size):
            if labels[argument] == IN:
                mask |= 1 << argument
        return mask

    def still_containing(labels: list[int], candidates: Iterable[int]) -> list[int]:
        """The candidate found sets that contain the current IN-set."""
        accepted = accepted_mask(labels)
        return [extension for extension in candidates if accepted & ~extension == 0]

    def escape_from_found(labels: list[int], containing: list[int]) -> int | None:
        """Preferred only: force or pick an argument that leaves the found sets.

        A leaf whose IN-set lies inside a found set is dropped, so for every
        found set F containing the current IN-set, some BLANK argument outside
        F has to come IN.  Returns _NO_ESCAPE if for some F none can (prune);
        the argument, already set IN, if for some F only one can; otherwise a
        BLANK argument outside the first F to branch on (None if no F).
        """
        reachable = 0
        for argument in range(size):
            if labels[argument] == IN or labels[argument] == BLANK:
                reachable |= 1 << argument
        for extension in containing:
            missing = reachable & ~extension
            if missing == 0:
                return _NO_ESCAPE
            if missing & (missing - 1) == 0:
                only_way_out = missing.bit_length() - 1
                labels[only_way_out] = IN
                return only_way_out
        if not containing:
            return None
        first = containing[0]
        return next(a for a in branching_order if labels[a] == BLANK and not first >> a & 1)

    def most_constrained_defender(labels: list[int]) -> int | None:
        # Fail first: a MUST_OUT argument with the fewest BLANK attackers needs
        # one of them IN; trying them first finds dead ends early.
        best = None
        fewest = size + 1
        for argument in range(size):
            if labels[argument] == MUST_OUT:
                blank = [a for a in local_attackers[argument] if labels[a] == BLANK]
                if len(blank) < fewest:
                    fewest = len(blank)
                    best = blank[0]
        return best

    # Each pending node carries the found sets that contained its parent's
    # IN-set and how many sets had been found then: IN-sets only grow going
    # down, so a found set that did not contain the parent's cannot contain
    # the child's, and only those and the newer ones need checking.
    # The first worklist holds every argument: some are forced from the start.
    pending = [(initial, list(range(size)), [], 0)]
    while pending:
        labels, changed, candidates, seen = pending.pop()
        if not propagate(labels, changed):
            continue
        branch_on = None
        containing: list[int] = []
        if preferred:
            containing = still_containing(labels, candidates + found[seen:])
            escape = None
            while containing:
                escape = escape_from_found(labels, containing)
                if escape is None or escape == _NO_ESCAPE or labels[escape] != IN:
                    break
                if not propagate(labels, [escape]):  # it was the only way out: forced IN
                    escape = _NO_ESCAPE
                    break
                containing = still_containing(labels, containing)
                escape = None
            if escape == _NO_ESCAPE:
                continue
            branch_on = escape
        defender = most_constrained_defender(labels)
        if defender is not None:
            branch_on = defender
        if branch_on is None:
            branch_on = next((a for a in branching_order if labels[a] == BLANK), None)
        if branch_on is None:
            # A leaf.  For preferred, nothing found contains it (escape_from_found
            # prunes those), so it is maximal.
            if preferred:
                found.append(accepted_mask(labels))
            yield frozenset(region[a] for a in range(size) if labels[a] == IN)
            continue
        left_out = labels.copy()
        left_out[branch_on] = not_in
        taken = labels.copy()
        taken[branch_on] = IN
        # A stack: the IN branch, pushed last, is explored first.
        pending.append((left_out, [branch_on], containing, len(found)))
        pending.append((taken, [branch_on], containing, len(found)))
