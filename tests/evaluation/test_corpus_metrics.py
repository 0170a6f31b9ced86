"""What the truth corpus measures, from an observed record and a scenario's truth
(orchestration/evaluation/corpus_metrics.py): each figure moves both ways. Plain."""

from __future__ import annotations

from evaluation.corpus.loader import TRUTH, load_scenario
from orchestration.evaluation.corpus_metrics import mode_summary, run_metrics

LATENCY = load_scenario(TRUTH / "ac_latency_restated_hiring_narrowed.toml")
NEGATION = load_scenario(TRUTH / "ac_critic_agrees_with_the_negation.toml")
STADIUM = load_scenario(TRUTH / "dialogue_stadium_ghost_names.toml")


def point(text: str, status: str) -> dict:
    return {"text": text, "status": status}


def ac_round(number: int, consensus: bool, points: list[dict], assessed: bool = True) -> dict:
    return {"round": number, "consensus": consensus, "assessed": assessed, "points": points}


# Issue 39's first story as the word-matching ledger left it: the latency point twice, the broad
# hiring point contested for ever, the narrowed one beside it, 75% every round, no consensus.
WORD_MATCHED = [
    point("A Rust checkout cuts p99 latency by about a third", "agreed"),
    point("We can hire the engineers", "contested"),
    point("The port goes endpoint by endpoint", "agreed"),
    point("Tail latency drops by roughly 33 percent", "agreed"),
    point("Staffing is feasible with a six-month ramp", "agreed"),
]
BY_REFERENCE = [
    point("a rust checkout has about one third lower p99 latency", "agreed"),
    point("the company can hire the rust engineers", "refined"),
    point("the port proceeds endpoint by endpoint", "agreed"),
    point("staffing works over a six-month ramp", "agreed"),
]
LABELS = {
    "a rust checkout has about one third lower p99 latency": "p1",
    "the company can hire the rust engineers": "p2",
    "the port proceeds endpoint by endpoint": "p3",
    "staffing works over a six-month ramp": "p4",
}


def test_the_word_matched_ledger_misses_consensus_and_lists_two_points_twice():
    observed = {"verdict": "partial", "rounds": [ac_round(n, False, WORD_MATCHED) for n in (1, 2, 3)]}

    metrics = run_metrics(LATENCY, observed)

    assert metrics["missed_consensus"] and not metrics["fake_consensus"]
    ac = metrics["analyst_critic"]
    assert ac["consensus_round"] is None and ac["inverted"] == []
    # The latency point counted twice; the hiring point still counted though it was narrowed.
    assert sorted(line.split(":")[0] for line in ac["points_twice"]) == ["p1", "p2"]
    assert ac["statuses"]["p2"] == {"expected": "superseded", "reported": "contested"}


def test_the_ledger_by_reference_reaches_consensus_in_round_two_with_nothing_listed_twice():
    observed = {
        "verdict": "consensus",
        "labels": LABELS,
        "rounds": [ac_round(1, False, BY_REFERENCE[:3]), ac_round(2, True, BY_REFERENCE)],
    }

    metrics = run_metrics(LATENCY, observed)

    ac = metrics["analyst_critic"]
    assert not metrics["missed_consensus"] and ac["consensus_round"] == 2
    assert (ac["consensus_late"], ac["consensus_early"], ac["points_twice"], ac["statuses_wrong"]) == (
        False,
        False,
        [],
        [],
    )


def test_a_consensus_a_round_early_or_late_is_counted():
    early = run_metrics(LATENCY, {"verdict": "consensus", "rounds": [ac_round(1, True, BY_REFERENCE[:3])]})
    late = run_metrics(
        LATENCY, {"verdict": "consensus", "rounds": [ac_round(n, n == 3, BY_REFERENCE) for n in (1, 2, 3)]}
    )

    assert early["analyst_critic"]["consensus_early"] and not early["analyst_critic"]["consensus_late"]
    assert late["analyst_critic"]["consensus_late"] and not late["analyst_critic"]["consensus_early"]


def test_agreement_filed_under_the_negation_is_an_inverted_point_and_a_fake_consensus():
    # "I agree that gold has not protected savers" filed as agreement with the point it rejects.
    points = [
        point("Gold has not protected savers against inflation", "agreed"),
        point("A gold sleeve shrinks drawdowns", "agreed"),
        point("Allocated custody costs below 0.15% a year", "agreed"),
    ]
    negated = run_metrics(NEGATION, {"verdict": "consensus", "rounds": [ac_round(1, True, points)]})
    flipped = run_metrics(
        NEGATION,
        {
            "verdict": "consensus",
            "rounds": [ac_round(1, True, [point("Gold shields savers from inflation", "agreed")])],
        },
    )

    assert negated["fake_consensus"] and negated["analyst_critic"]["inverted"] == []  # the negation read with its words
    assert flipped["analyst_critic"]["inverted"] == ["p1 [agreed] Gold shields savers from inflation"]


def test_a_name_nobody_has_is_a_ghost_and_a_seat_title_is_not():
    observed = {
        "verdict": "disagreement_no_crux",
        "names": [("results", "Trade r"), ("results", "Macro Trader"), ("map", "Critic"), ("crux card", "Shoul d")],
        "final_sides": {name: side for name, side in STADIUM.expect.final_sides["q1"].items()},
    }

    metrics = run_metrics(STADIUM, observed)

    assert metrics["ghost_names"] == ["Shoul d (crux card)", "Trade r (results)"]
    assert metrics["discussion"]["answers_lost"] == [] and not metrics["fake_consensus"]


def test_a_mode_summary_counts_each_figure_over_the_scenarios_that_could_show_it():
    runs = [
        {
            "scenario": LATENCY,
            "record": {"status": "completed", "metrics": run_metrics(LATENCY, {"verdict": "partial"})},
        },
        {
            "scenario": NEGATION,
            "record": {"status": "completed", "metrics": run_metrics(NEGATION, {"verdict": "consensus"})},
        },
    ]

    summary = mode_summary(runs)

    assert (summary["missed_consensus"], summary["could_miss"], summary["fake_consensus"], summary["could_fake"]) == (
        1,
        1,
        1,
        1,
    )
