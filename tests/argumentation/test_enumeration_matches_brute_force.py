"""EE and SE for every semantics, and the grounded labelling, against brute force."""

from hypothesis import given

from argumentation import Semantics

from .brute_force import reference_extensions, reference_labelling
from .strategies import property_settings, small_frameworks


@property_settings
@given(small_frameworks())
def test_it_enumerates_exactly_the_extensions_of_every_semantics(framework):
    for semantics in Semantics:
        expected = reference_extensions(framework.arguments, framework.attacks, semantics)

        found = framework.extensions(semantics)

        assert len(found) == len(set(found)), semantics
        assert set(found) == expected, semantics


@property_settings
@given(small_frameworks())
def test_some_extension_is_an_extension_or_none_when_there_is_none(framework):
    for semantics in Semantics:
        expected = reference_extensions(framework.arguments, framework.attacks, semantics)

        extension = framework.some_extension(semantics)

        if expected:
            assert extension in expected, semantics
        else:
            assert extension is None, semantics


@property_settings
@given(small_frameworks())
def test_the_grounded_labelling_matches_the_least_complete_extension(framework):
    (grounded,) = reference_extensions(framework.arguments, framework.attacks, Semantics.GROUNDED)

    labelling = framework.grounded_labelling()

    assert {a: label.value for a, label in labelling.items()} == reference_labelling(
        framework.arguments, framework.attacks, grounded
    )
