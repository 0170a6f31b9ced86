"""Hypothesis strategies: random small frameworks, self-attacks included."""

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from argumentation import ArgumentationFramework

# No example database: it would write a .hypothesis/ folder into the project.
property_settings = settings(
    max_examples=400,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def small_frameworks(draw, max_arguments: int = 9) -> ArgumentationFramework:
    size = draw(st.integers(min_value=0, max_value=max_arguments))
    names = [f"a{index}" for index in range(size)]
    if not names:
        return ArgumentationFramework([], [])
    possible = [(attacker, target) for attacker in names for target in names]
    # Sparse and dense frameworks behave very differently, so draw the
    # density first (integers alone would be biased towards few attacks).
    density = draw(st.sampled_from([0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 0.9]))
    count = round(density * len(possible)) + draw(st.integers(min_value=0, max_value=2))
    attacks = draw(st.permutations(possible))[:count]
    return ArgumentationFramework(names, attacks)
