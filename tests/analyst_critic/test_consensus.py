import pytest

from orchestration.modes.analyst_critic.consensus import (
    AGREED,
    CONTESTED,
    SUMMARY_LIMIT_CHARS,
    PointLedger,
    condensed_summary,
    same_point,
)
from orchestration.schemas import AgreementAssessment
from tests.analyst_critic.conftest import A_RESTATED, C_RESTATED, A, B, C, assessment, by_reference


def fold(ledger: PointLedger, number: int, **points) -> PointLedger:
    shown = {ledger.point_id(index): ledger.points[index].text for index in ledger.open_indices()}
    ledger.fold(AgreementAssessment.model_validate(by_reference(assessment(**points), shown)), number)
    return ledger


def test_a_restated_point_is_matched_to_the_earlier_one_not_counted_again():
    ledger = fold(PointLedger(), 1, agreed=[A], disagreed=[C])
    fold(ledger, 2, agreed=[A_RESTATED, C_RESTATED])

    assert [(point.text, point.status, point.first_round, point.last_round) for point in ledger.points] == [
        (A, AGREED, 1, 2),
        (C, AGREED, 1, 2),
    ]
    assert ledger.score == 100.0 and ledger.consensus


def test_different_points_stay_apart():
    assert not same_point(A, B) and not same_point(B, C)
    assert same_point(A, A_RESTATED) and same_point(C, C_RESTATED)


def test_the_score_is_agreed_over_agreed_contested_and_unverifiable():
    ledger = fold(PointLedger(), 1, agreed=[A], disagreed=[B, C], unverifiable=["Markets will rise in 2040"])
    assert ledger.score == 25.0 and not ledger.consensus  # unverifiable points count against it (Proflow)

    assert PointLedger().score == 0.0 and not PointLedger().consensus  # no points: 0, go on


def test_consensus_needs_no_open_contested_point_even_at_a_high_score():
    agreed = [
        "Index funds have low fees",
        "Diversification reduces single-company risk",
        "Past returns do not guarantee future ones",
        "Taxes matter for after-cost returns",
        "Most savers cannot pick winning stocks",
        "Time in the market beats timing it",
    ]
    ledger = fold(PointLedger(), 1, agreed=agreed, disagreed=["Bonds are always safe"])
    assert ledger.score >= 85 and ledger.with_status(CONTESTED) and not ledger.consensus


@pytest.mark.original_prompts  # reads the summary as worded
def test_the_condensed_summary_lists_decisions_and_is_capped():
    ledger = fold(PointLedger(), 1, agreed=[A], disagreed=[B])
    fold(ledger, 2, agreed=[A, B])
    summary = condensed_summary(ledger, ["[turn 1] Analyst: Index funds win."])
    assert f"Decisions (contested, then agreed): {B}\n" in summary and "\n[turn 1] Analyst: Index funds win." in summary

    long = condensed_summary(ledger, [f"finding {n} " + "x" * 200 for n in range(100)])
    assert len(long) == SUMMARY_LIMIT_CHARS and long.startswith("Agreed:")
