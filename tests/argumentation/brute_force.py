"""Reference semantics by brute force over all subsets, straight from the definitions.

Deliberately naive so that it is obviously right; only for small frameworks
(2^n subsets).  It shares no code with the engine.
"""

from functools import lru_cache
from itertools import combinations

from argumentation import Semantics


def reference_extensions(arguments, attacks, semantics):
    """The set of extensions (frozensets) of the framework under `semantics`."""
    return _all_semantics(tuple(arguments), frozenset(attacks))[semantics]


def reference_labelling(arguments, attacks, extension):
    """IN for members, OUT for what a member attacks, UNDEC otherwise."""
    labels = {}
    for argument in arguments:
        if argument in extension:
            labels[argument] = "IN"
        elif any((member, argument) in attacks for member in extension):
            labels[argument] = "OUT"
        else:
            labels[argument] = "UNDEC"
    return labels


@lru_cache(maxsize=256)
def _all_semantics(arguments, attacks):
    attackers = {a: {x for x, y in attacks if y == a} for a in arguments}

    def conflict_free(subset):
        return not any(x in subset and y in subset for x, y in attacks)

    def defends(subset, argument):
        # Every attacker of the argument is attacked by some member.
        return all(any((member, attacker) in attacks for member in subset) for attacker in attackers[argument])

    def admissible(subset):
        return conflict_free(subset) and all(defends(subset, a) for a in subset)

    def complete(subset):
        return admissible(subset) and all(a in subset for a in arguments if defends(subset, a))

    def stable(subset):
        return conflict_free(subset) and all(
            any((member, outsider) in attacks for member in subset) for outsider in arguments if outsider not in subset
        )

    subsets = [frozenset(chosen) for size in range(len(arguments) + 1) for chosen in combinations(arguments, size)]
    admissible_sets = [s for s in subsets if admissible(s)]
    complete_sets = [s for s in admissible_sets if complete(s)]
    return {
        Semantics.COMPLETE: set(complete_sets),
        # Least complete extension: the one inside every other.
        Semantics.GROUNDED: {s for s in complete_sets if all(s <= o for o in complete_sets)},
        # Maximal admissible sets.
        Semantics.PREFERRED: {s for s in admissible_sets if not any(s < o for o in admissible_sets)},
        Semantics.STABLE: {s for s in subsets if stable(s)},
    }
