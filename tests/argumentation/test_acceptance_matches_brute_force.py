"""DC and DS for every semantics against brute force (DS-ST is vacuously true with no stable extension)."""

from hypothesis import given

from argumentation import Semantics

from .brute_force import reference_extensions
from .strategies import property_settings, small_frameworks


@property_settings
@given(small_frameworks())
def test_credulous_acceptance_means_in_some_extension(framework):
    for semantics in Semantics:
        expected = reference_extensions(framework.arguments, framework.attacks, semantics)
        for argument in framework.arguments:
            assert framework.credulously_accepted(argument, semantics) == any(
                argument in extension for extension in expected
            ), (semantics, argument)


@property_settings
@given(small_frameworks())
def test_skeptical_acceptance_means_in_every_extension(framework):
    for semantics in Semantics:
        expected = reference_extensions(framework.arguments, framework.attacks, semantics)
        for argument in framework.arguments:
            # all() of nothing is True: the ICCMA answer for DS-ST without stable extensions.
            assert framework.skeptically_accepted(argument, semantics) == all(
                argument in extension for extension in expected
            ), (semantics, argument)
