"""The truth suite's metrics on hand-built results: each moves when what a run reported disagrees
with the scenario's ground truth, and stays put when it agrees."""

from orchestration.evaluation import truth_metrics as tm

GOLD = {"question": "Is gold a better hedge than bonds?", "keywords": ("gold", "hedge")}
TRUTH = [
    {"keywords": ("gold", "protect"), "accepted": False},  # the Critic rejects "gold protects savers"
    {"keywords": ("bonds", "beat"), "accepted": True},
]


def test_a_decoy_taken_for_a_crux_lowers_precision_and_a_missed_crux_lowers_recall():
    right = tm.crux_quality(["Is gold a better hedge than bonds?"], [GOLD])
    decoy = tm.crux_quality(["Is gold a better hedge than bonds?", "Did the gold window close in 1971?"], [GOLD])
    missed = tm.crux_quality(["Did the gold window close in 1971?"], [GOLD])

    assert (right["precision"], right["recall"]) == (1.0, 1.0)
    assert (decoy["precision"], decoy["recall"]) == (0.5, 1.0)
    assert decoy["invented"] == ["Did the gold window close in 1971?"]
    assert (missed["precision"], missed["recall"]) == (0.0, 0.0)


def test_a_point_agreed_in_the_opposite_wording_is_inverted():
    merged = [
        {"text": "Gold protects savers against inflation", "status": "agreed"},  # took the negation's status
        {"text": "Bonds beat gold over long horizons", "status": "agreed"},
    ]
    kept_apart = [
        {"text": "Gold protects savers against inflation", "status": "contested"},
        {"text": "Gold does not protect savers against inflation", "status": "agreed"},
        {"text": "Bonds beat gold over long horizons", "status": "agreed"},
    ]

    assert tm.inverted_points(merged, TRUTH) == {
        "judged": 2,
        "inverted": ["[agreed] Gold protects savers against inflation"],
    }
    assert tm.inverted_points(kept_apart, TRUTH) == {"judged": 3, "inverted": []}
    assert tm.inverted_points([{"text": "Bonds beat gold", "status": "contested"}], TRUTH)["inverted"] == [
        "[contested] Bonds beat gold"
    ]


def test_consensus_is_fake_where_they_disagree_or_nothing_was_settled_and_missed_where_they_agree():
    assert tm.consensus_errors(expect="disagree", outcome="consensus") == {
        "fake_consensus": True,
        "missed_consensus": False,
    }
    assert tm.consensus_errors(expect="undetermined", outcome="consensus")["fake_consensus"]
    assert tm.consensus_errors(expect="undetermined", outcome="undetermined") == {
        "fake_consensus": False,
        "missed_consensus": False,
    }
    assert tm.consensus_errors(expect="agree", outcome="partial")["missed_consensus"]


def _record(mode, expect, outcome, reported=(), probes=()):
    return {
        "scenario": f"{mode}-{expect}",
        "mode": mode,
        "expect": expect,
        "status": "completed",
        "probes": list(probes),
        "metrics": tm.run_metrics(
            expect=expect, outcome=outcome, reported=list(reported), cruxes=[GOLD], points=[], truth=[]
        ),
    }


def test_a_mode_summary_counts_every_error_and_facts_recalled_for_unrelated_topics():
    records = [
        _record("graph", "disagree", "consensus", ["Is gold a better hedge than bonds?", "Is chess a sport?"]),
        _record("graph", "agree", "consensus"),
        _record(
            "graph",
            "agree",
            "partial",
            probes=[
                {"topic": "Is chess a sport?", "related": False, "facts": ["Index funds beat active managers"]},
                {"topic": "Do index funds win?", "related": True, "facts": []},
            ],
        ),
    ]

    summary = tm.mode_summary(records)

    assert summary["fake_consensus"] == 1 and summary["fake_consensus_rate"] == 1.0
    assert summary["missed_consensus"] == 1 and summary["missed_consensus_rate"] == 0.5
    assert summary["crux_precision"] == 0.5 and summary["decoys_taken_for_cruxes"] == 1
    assert summary["false_facts"] == 1 and summary["false_fact_rate"] == 1.0
    assert summary["related_topics_without_facts"] == 1
    assert summary["inverted_point_rate"] is None  # no Analyst/Critic ledger to judge
