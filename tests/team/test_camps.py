"""The camps and the splitting crux, as tables: who took which side on which crux (Y, N, ~ for
NUANCED, . for not answered), and what the map must say."""

import pytest

from debates.faultlines import camps, share_a_camp, splitting_crux

SIDE = {"Y": "YES", "N": "NO", "~": "NUANCED"}


def table(rows: dict[str, str]) -> dict[str, dict[int, str]]:
    """{"ann": "YN.~"} -> {"ann": {1: "YES", 2: "NO", 4: "NUANCED"}}: one letter per crux, 1, 2, ..."""
    return {
        person: {number: SIDE[letter] for number, letter in enumerate(letters, start=1) if letter != "."}
        for person, letters in rows.items()
    }


CAMPS = [
    pytest.param({"ann": "YYY", "bob": "YYY", "cat": "NNN"}, [["ann", "bob"], ["cat"]], id="two against one"),
    pytest.param({"ann": "YYN", "bob": "YYY"}, [["ann", "bob"]], id="two of three is most"),
    pytest.param({"ann": "YN", "bob": "YY"}, [["ann"], ["bob"]], id="half exactly is not most"),
    pytest.param({"ann": "Y.", "bob": ".Y"}, [["ann"], ["bob"]], id="nothing answered in common shares nothing"),
    pytest.param({"ann": "~~Y", "bob": "~~N"}, [["ann", "bob"]], id="NUANCED agrees with NUANCED"),
    pytest.param({"ann": "~", "bob": "Y"}, [["ann"], ["bob"]], id="NUANCED is not YES"),
    pytest.param({"ann": "~", "bob": "N"}, [["ann"], ["bob"]], id="nor NO"),
    pytest.param({"ann": "YY..", "bob": "YYNN", "cat": "..NN"}, [["ann", "bob", "cat"]], id="linked through bob"),
    pytest.param({"ann": "YYY", "bob": "...", "cat": "NNN"}, [["ann"], ["cat"]], id="answering nothing: no camp"),
    pytest.param({"dan": "NN", "ann": "YY"}, [["ann"], ["dan"]], id="a tie in size goes by first name"),
    pytest.param(
        {"ann": "YYY", "bob": "NNN", "cat": "NNN", "dan": "YY.", "eve": "~~~"},
        [["ann", "dan"], ["bob", "cat"], ["eve"]],
        id="largest first, a tie in size by first name",
    ),
    pytest.param({"ann": "Y.N", "bob": "Y.Y", "cat": "N.N"}, [["ann"], ["bob"], ["cat"]], id="missing is unknown"),
]


@pytest.mark.parametrize(("rows", "expected"), CAMPS)
def test_camps(rows, expected):
    assert camps(table(rows)) == expected


def test_sharing_a_camp_is_symmetric():
    sides = table({"ann": "YN~.Y", "bob": "Y~~NN"})
    assert share_a_camp(sides["ann"], sides["bob"]) == share_a_camp(sides["bob"], sides["ann"])


SPLITS = [
    # rows, the crux that splits, its difference
    pytest.param({"ann": "YYY", "bob": "YYY", "cat": "YYN"}, None, None, id="one camp: nothing splits"),
    pytest.param({"ann": "YYN", "bob": "YYN", "cat": "NNY", "dan": "NNY"}, 1, 2.0, id="a tie goes to the first crux"),
    pytest.param({"ann": "Y~Y", "bob": "Y~Y", "cat": "NYY"}, 1, 2.0, id="YES against NO splits more"),
    pytest.param({"ann": "~YY", "bob": "~YY", "cat": "NNN"}, 2, 2.0, id="than NUANCED against NO"),
    pytest.param(
        {"ann": "~~.", "bob": "~~Y", "cat": "NN.", "dan": "NNN"},
        3,
        2.0,
        id="a crux only some answered counts those who did",
    ),
    pytest.param({"ann": "YY", "bob": "YY", "cat": ".N"}, 2, 2.0, id="a crux one camp never answered cannot split"),
    pytest.param(
        {"ann": "Y.", "bob": "Y.", "cat": ".N"}, None, None, id="no crux answered by both camps: nothing splits"
    ),
]


@pytest.mark.parametrize(("rows", "crux", "difference"), SPLITS)
def test_the_splitting_crux(rows, crux, difference):
    sides = table(rows)
    split = splitting_crux(sides, camps(sides), cruxes=[1, 2, 3])
    if crux is None:
        assert split is None
    else:
        assert (split.crux, split.difference) == (crux, difference)


def test_the_means_of_a_split_are_each_camps_own():
    sides = table({"ann": "YYY", "bob": "Y~Y", "cat": "NNN", "dan": "N.N"})
    found = camps(sides)
    assert found == [["ann", "bob"], ["cat", "dan"]]
    split = splitting_crux(sides, found, cruxes=[1, 2, 3])
    assert (split.crux, split.first_mean, split.second_mean) == (1, 1.0, -1.0)
    assert splitting_crux(sides, found, cruxes=[2]).difference == 1.5  # (1 + 0) / 2 against -1
