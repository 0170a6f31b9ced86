"""The mode table: one hand rule for every mode, rows checked when registered, order kept."""

import pytest

from debates.modes import ModeSpec, hand_problem, mode_find, mode_register, mode_spec, mode_unregister, modes_available
from gateways.llm.roles import model_roles


@pytest.mark.parametrize(
    ("mode", "picked", "problem"),
    [
        ("dialogue", 2, ""),
        ("dialogue", 6, ""),
        ("dialogue", 1, "Pick between 2 and 6 personas (you picked 1)."),
        ("dialogue", 7, "Pick between 2 and 6 personas (you picked 7)."),
        ("analyst_critic", 2, ""),
        ("analyst_critic", 3, "The Analyst vs Critic mode takes a hand of two: the Analyst and the Critic."),
        ("analyst_critic", 7, "Pick between 2 and 6 personas (you picked 7)."),  # the house's bounds first
        ("collaborate", 4, "The Collaborate mode takes a hand of two: the Architect and the Reviewer."),
        (None, 4, ""),  # no mode chosen (yet): the house's bounds only
    ],
)
def test_one_hand_rule(mode, picked, problem):
    assert hand_problem(mode_find(mode), picked) == problem


def test_the_four_modes_are_listed_in_order():
    assert [spec.key for spec in modes_available()] == ["dialogue", "graph", "analyst_critic", "collaborate"]
    assert [seat.name for seat in mode_spec("collaborate").seats] == ["Architect", "Reviewer"]


def test_a_row_outside_the_houses_hand_or_with_seats_for_another_hand_is_refused():
    with pytest.raises(ValueError, match="a hand lies within 2..6"):
        ModeSpec(key="crowd", label="Crowd", help="", behaviour="x.Crowd", hand=(2, 9))
    with pytest.raises(ValueError, match="2 seats for a hand of up to 3"):
        ModeSpec(
            key="trio",
            label="Trio",
            help="",
            behaviour="x.Trio",
            hand=(3, 3),
            seats=mode_spec("collaborate").seats,
        )


def test_an_unregistered_mode_is_unknown_and_takes_its_own_roles_with_it():
    spec = ModeSpec(
        key="scribes",
        label="Scribes",
        help="",
        behaviour="x.Scribes",
        hand=(2, 3),
        model_roles={"scribe": {"anthropic": "claude-scribe"}},
    )
    mode_register(spec)
    try:
        assert mode_spec("scribes") is spec and "scribe" in model_roles()
        assert hand_problem(spec, 4) == "The Scribes mode takes between 2 and 3 personas."
    finally:
        mode_unregister("scribes")
    assert mode_find("scribes") is None and "scribe" not in model_roles()
    with pytest.raises(LookupError, match="no mode 'scribes'"):
        mode_spec("scribes")
