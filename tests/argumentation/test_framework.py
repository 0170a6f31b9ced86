"""Building frameworks, and the promises of the API: exact, uncapped, lazy."""

import itertools

import pytest

from argumentation import ArgumentationFramework, Label, Semantics


def independent_two_cycles(count: int) -> ArgumentationFramework:
    arguments = [f"{side}{index}" for index in range(count) for side in "xy"]
    attacks = [(f"x{i}", f"y{i}") for i in range(count)] + [(f"y{i}", f"x{i}") for i in range(count)]
    return ArgumentationFramework(arguments, attacks)


def test_it_rejects_an_attack_on_an_unknown_argument():
    with pytest.raises(ValueError, match="'z'"):
        ArgumentationFramework(["a"], [("a", "z")])


def test_it_rejects_questions_about_unknown_arguments():
    framework = ArgumentationFramework(["a"], [])

    with pytest.raises(KeyError):
        framework.credulously_accepted("z", Semantics.PREFERRED)
    with pytest.raises(KeyError):
        framework.skeptically_accepted("z", Semantics.STABLE)


def test_it_accepts_any_hashable_arguments():
    framework = ArgumentationFramework([1, 2, (3, "x")], [(1, 2), (2, (3, "x"))])

    assert framework.grounded_extension() == frozenset({1, (3, "x")})


def test_it_enumerates_more_than_two_to_the_sixteen_extensions_exactly():
    # The seed engine stopped at 2^16 subsets and silently answered wrongly.
    framework = independent_two_cycles(17)

    extensions = framework.extensions(Semantics.PREFERRED)

    assert len(extensions) == 2**17
    assert len(set(extensions)) == 2**17
    assert all(len(extension) == 17 for extension in extensions)


def test_it_produces_extensions_lazily():
    # 2^60 extensions: only a lazy enumeration can hand out the first few.
    framework = independent_two_cycles(60)

    first_three = list(itertools.islice(framework.iter_extensions(Semantics.STABLE), 3))

    assert len(set(first_three)) == 3
    assert framework.some_extension(Semantics.PREFERRED) is not None
    assert framework.credulously_accepted("x59", Semantics.PREFERRED)
    assert not framework.skeptically_accepted("x59", Semantics.PREFERRED)


def test_stable_has_no_extension_on_an_odd_cycle_and_every_argument_is_skeptically_accepted():
    framework = ArgumentationFramework("abc", [("a", "b"), ("b", "c"), ("c", "a")])

    assert framework.some_extension(Semantics.STABLE) is None
    assert framework.extensions(Semantics.STABLE) == []
    # ICCMA convention: DS-ST is YES when there is no stable extension.
    assert all(framework.skeptically_accepted(a, Semantics.STABLE) for a in "abc")
    assert not any(framework.credulously_accepted(a, Semantics.STABLE) for a in "abc")


def test_a_downstream_odd_cycle_removes_every_stable_extension():
    framework = ArgumentationFramework(
        "abxyz", [("a", "b"), ("b", "a"), ("x", "y"), ("y", "z"), ("z", "x"), ("a", "x")]
    )

    assert framework.extensions(Semantics.STABLE) == [frozenset({"a", "y"})]
    assert set(framework.extensions(Semantics.PREFERRED)) == {frozenset({"a", "y"}), frozenset({"b"})}


def test_it_labels_a_complete_extension():
    framework = ArgumentationFramework("abc", [("a", "b"), ("b", "a"), ("b", "c")])

    assert framework.labelling_of({"a", "c"}) == {"a": Label.IN, "b": Label.OUT, "c": Label.IN}
    assert framework.labelling_of(set()) == {"a": Label.UNDEC, "b": Label.UNDEC, "c": Label.UNDEC}


def test_it_restricts_to_a_sub_framework():
    framework = ArgumentationFramework("abc", [("a", "b"), ("b", "c"), ("c", "a")])

    part = framework.restricted_to({"a", "b"})

    assert part.arguments == ("a", "b")
    assert part.attacks == {("a", "b")}
    assert framework.ancestors_of("a") == frozenset("abc")
