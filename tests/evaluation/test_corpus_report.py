"""The truth corpus's report as text (orchestration/evaluation/corpus_report.py): one line of headline
figures per mode, the mode's own figures under it, then each run's findings. Plain."""

from __future__ import annotations

from evaluation.corpus.loader import TRUTH, load_scenario
from orchestration.evaluation.corpus_metrics import mode_summary, run_metrics
from orchestration.evaluation.corpus_report import corpus_report_text

LATENCY = load_scenario(TRUTH / "ac_latency_restated_hiring_narrowed.toml")
STADIUM = load_scenario(TRUTH / "dialogue_stadium_ghost_names.toml")


def record(scenario, observed: dict, verdict: str) -> dict:
    return {
        "scenario": scenario.name,
        "mode": scenario.mode,
        "status": "completed",
        "expected": scenario.expect.verdict,
        "verdict": verdict,
        "seconds": 1.5,
        "metrics": run_metrics(scenario, observed),
    }


def report(runs: list[tuple], held_out: bool = False) -> dict:
    modes = {}
    for scenario, run in runs:
        modes.setdefault(scenario.mode, []).append({"scenario": scenario, "record": run})
    return {
        "corpus": "evaluation/corpus/truth",
        "model": "fake",
        "seconds": 3.0,
        "commit": "abc1234",
        "held_out": held_out,
        "modes": {mode: mode_summary(rows) for mode, rows in modes.items()},
        "runs": [run for _, run in runs],
    }


def test_each_mode_has_its_headline_line_and_each_run_says_what_went_wrong():
    missed = record(LATENCY, {"verdict": "partial"}, "partial")
    ghosts = {
        "verdict": "disagreement_no_crux",
        "names": [("results", "Trade r")],
        "final_sides": dict(STADIUM.expect.final_sides["q1"]),
    }
    text = corpus_report_text(report([(LATENCY, missed), (STADIUM, record(STADIUM, ghosts, "disagreement"))]))

    lines = text.splitlines()
    assert lines[0].startswith("Truth corpus · evaluation/corpus/truth · model fake · 2 scenarios")
    (ac,) = [line for line in lines if line.startswith("analyst_critic (1 scenarios, 0 failed runs)")]
    assert "fake consensus 0 of 0, missed consensus 1 of 1, names that are not participants 0" in ac
    assert "points listed twice 0, inverted points 0" in lines[lines.index(ac) + 1]
    (talk,) = [line for line in lines if line.startswith("dialogue (1 scenarios")]
    assert "names that are not participants 1" in talk and "forbidden phrases on surfaces 0" in talk
    assert "    missed consensus" in lines and "    ghost name: Trade r (results)" in lines


def test_held_out_scenarios_are_headed_apart():
    text = corpus_report_text(report([(LATENCY, record(LATENCY, {"verdict": "consensus"}, "consensus"))], True))

    assert text.startswith("Truth corpus (held-out scenarios) · ")
