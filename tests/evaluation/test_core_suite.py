"""The core suite's ground truth, held by the real orchestrator (one seed per scenario)."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def by_scenario(report, name):
    return [d for d in report["debates"] if d["scenario"] == name]


def test_every_debate_of_the_suite_completes(core_report):
    assert {d["scenario"] for d in core_report["debates"]} == {
        "two_disagreements",
        "truly_agree",
        "flips_on_evidence",
        "talking_past",
        "circling",
    }
    assert all(d["status"] == "completed" for d in core_report["debates"]), [
        d["failure"] for d in core_report["debates"]
    ]


def test_no_fake_consensus_where_the_personas_disagree(core_report):
    disagreeing = [d for d in core_report["debates"] if d["expect"] == "disagree"]
    assert len(disagreeing) == 3
    assert core_report["summary"]["fake_consensus_rate"] == 0
    assert all(d["metrics"]["regime"] != "consensus" for d in disagreeing)


def test_a_consensus_where_the_personas_truly_agree(core_report):
    (agree,) = by_scenario(core_report, "truly_agree")
    assert agree["metrics"]["regime"] == "consensus" and agree["cards"] == []
    assert agree["final_sides"] == {"Dina Open": "YES", "Eli Clear": "YES"}
    # The one who changed their mind on the evidence ends agreeing: a consensus, on the record.
    (flip,) = by_scenario(core_report, "flips_on_evidence")
    assert flip["metrics"]["regime"] == "consensus"
    assert flip["stances"][0].get("Fay Skeptic") in ("", "NO") and flip["final_sides"]["Fay Skeptic"] == "YES"


def test_every_planted_crux_is_found_and_nothing_invented(core_report):
    assert core_report["summary"]["planted_cruxes"] == 5
    assert core_report["summary"]["planted_cruxes_never_found"] == []
    assert core_report["summary"]["precision"] == 1.0
    (past,) = by_scenario(core_report, "talking_past")
    assert past["metrics"]["cruxes_typed_right"] == ["Is inflation falling?"]  # a definition crux


def test_no_crux_room_is_opened_twice_for_one_crux(core_report):
    assert core_report["summary"]["duplicate_rooms"] == 0
    (two,) = by_scenario(core_report, "two_disagreements")
    assert len(two["rooms"]) == len({room["question"] for room in two["rooms"]})


def test_neither_forbidden_phrases_nor_prompt_furniture_reach_the_page(core_report):
    assert sum(d["metrics"]["persona_redrafts"] for d in core_report["debates"]) > 0  # drafts did slip
    assert core_report["summary"]["page_leaks"] == 0


def test_disagreement_entropy_and_costs_are_measured(core_report):
    (past,) = by_scenario(core_report, "talking_past")
    assert past["metrics"]["entropy_by_round"][-1] == 1.0  # one YES, one NO: an even split
    (agree,) = by_scenario(core_report, "truly_agree")
    assert agree["metrics"]["entropy_by_round"][-1] == 0.0
    assert all(d["metrics"]["model_calls"] > 10 and d["metrics"]["input_tokens"] > 0 for d in core_report["debates"])
