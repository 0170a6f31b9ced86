"""Cross-check against pygarg (SAT-based) on frameworks too big for brute force.

pygarg and its SAT backend (python-sat) are test dependencies (pyproject.toml, requirements.lock):
a missing one fails here rather than skipping quietly.
"""

import random

import pysat  # noqa: F401  (pygarg imports it lazily; fail early and clearly if it is missing)
from hypothesis import given
from hypothesis import strategies as st
from pygarg.dung import solver as pygarg_solver

from argumentation import ArgumentationFramework, Semantics

from .strategies import property_settings


def random_framework(seed: int, size: int, shape: str) -> ArgumentationFramework:
    rng = random.Random(seed)
    names = [f"a{i}" for i in range(size)]
    attacks = set()
    if shape == "debate":
        # Each new argument attacks one or two earlier ones; some attacks are mutual.
        for i in range(1, size):
            for j in rng.sample(range(i), min(i, rng.choice([1, 1, 2]))):
                attacks.add((names[i], names[j]))
                if rng.random() < 0.25:
                    attacks.add((names[j], names[i]))
    else:
        degree = rng.choice([1.0, 1.5, 2.0, 3.0])
        attacks = {(a, b) for a in names for b in names if rng.random() < degree / size}
    return ArgumentationFramework(names, attacks)


def pygarg_extensions(framework: ArgumentationFramework, code: str) -> set[frozenset]:
    attacks = [[a, b] for a, b in sorted(framework.attacks)]
    return {frozenset(e) for e in pygarg_solver.extension_enumeration(list(framework.arguments), attacks, code)}


@property_settings
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    size=st.sampled_from([10, 20, 30, 40]),
    shape=st.sampled_from(["debate", "random"]),
)
def test_preferred_and_stable_extensions_match_pygarg(seed, size, shape):
    framework = random_framework(seed, size, shape)

    for semantics in (Semantics.PREFERRED, Semantics.STABLE):
        found = framework.extensions(semantics)
        assert len(found) == len(set(found))
        assert set(found) == pygarg_extensions(framework, semantics.value), semantics


@property_settings
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    size=st.sampled_from([10, 15, 20, 25]),
    shape=st.sampled_from(["debate", "random"]),
)
def test_complete_extensions_match_pygarg(seed, size, shape):
    framework = random_framework(seed, size, shape)

    found = framework.extensions(Semantics.COMPLETE)

    assert len(found) == len(set(found))
    assert set(found) == pygarg_extensions(framework, "CO")
