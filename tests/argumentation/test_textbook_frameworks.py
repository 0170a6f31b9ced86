"""Every semantics and the grounded labelling on small frameworks with known answers."""

import pytest

from argumentation import Label, Semantics

from .brute_force import reference_extensions
from .named_frameworks import ALL

by_name = pytest.mark.parametrize("example", ALL, ids=[example.name for example in ALL])
every_semantics = pytest.mark.parametrize("semantics", list(Semantics), ids=lambda s: s.value)


@by_name
@every_semantics
def test_it_finds_exactly_the_known_extensions(example, semantics):
    extensions = example.build().extensions(semantics)

    assert len(extensions) == len(set(extensions)), "no extension is reported twice"
    assert all(isinstance(extension, frozenset) for extension in extensions)
    assert set(extensions) == example.extensions[semantics]


@by_name
@every_semantics
def test_the_known_answers_agree_with_brute_force(example, semantics):
    # Guards the hand-written expectations themselves.
    assert example.extensions[semantics] == reference_extensions(example.arguments, example.attacks, semantics)


@by_name
def test_it_computes_the_grounded_labelling(example):
    framework = example.build()

    labelling = framework.grounded_labelling()

    assert {argument: label.value for argument, label in labelling.items()} == example.grounded_labelling
    assert framework.grounded_extension() == frozenset(
        argument for argument, label in labelling.items() if label is Label.IN
    )


@by_name
@every_semantics
def test_it_answers_acceptance_questions(example, semantics):
    framework = example.build()
    expected = example.extensions[semantics]

    for argument in example.arguments:
        assert framework.credulously_accepted(argument, semantics) == any(
            argument in extension for extension in expected
        )
        assert framework.skeptically_accepted(argument, semantics) == all(
            argument in extension for extension in expected
        )


@by_name
@every_semantics
def test_some_extension_is_one_of_them_or_none(example, semantics):
    extension = example.build().some_extension(semantics)

    if example.extensions[semantics]:
        assert extension in example.extensions[semantics]
    else:
        assert extension is None
