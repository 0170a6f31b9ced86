"""The point ledger folds each round's assessment so the page says what the Critic said: distinct
points stay distinct (numbers, quantifiers and subjects are part of what a point says), a point
in an open point's words is that point, the Critic "accepting" the opposite of what the Analyst
still holds contests it, unverifiable points count against consensus, and an established fact is
challenged, never flipped. (Each transition by id: test_ledger_by_reference.py.)"""

import pytest
from pydantic import ValidationError

from orchestration.modes.analyst_critic.consensus import AGREED, CONTESTED, UNVERIFIABLE, Point, PointLedger
from orchestration.schemas import AgreementAssessment
from tests.analyst_critic.conftest import assessment, by_reference

SAFER = "Rust is safer than C for systems code"
NOT_SAFER = "Rust is not safer than C for systems code"
HIRING = "Rust's borrow checker slows down new hires"
FACT = "Low costs matter most for long-run returns"
NOT_FACT = "Low costs do not matter most for long-run returns"


def fold(ledger: PointLedger, number: int, **points) -> PointLedger:
    """The Critic's verdicts by wording, named by id where the wording is an open point's."""
    shown = {ledger.point_id(index): ledger.points[index].text for index in ledger.open_indices()}
    ledger.fold(AgreementAssessment.model_validate(by_reference(assessment(**points), shown)), number)
    return ledger


def rows(ledger: PointLedger) -> list[tuple]:
    return [(point.text, point.status) for point in ledger.points]


def with_fact() -> PointLedger:
    return PointLedger([Point(FACT, AGREED, "Established in an earlier debate", 0, 0, from_memory=True)])


def test_agreeing_with_the_negation_of_what_the_analyst_still_holds_contests_the_point():
    ledger = fold(PointLedger(), 1, agreed=[SAFER, HIRING])
    fold(ledger, 2, agreed=[NOT_SAFER, HIRING])

    assert rows(ledger) == [(SAFER, CONTESTED), (HIRING, AGREED)]
    assert NOT_SAFER in ledger.points[0].note
    assert ledger.score == 50.0 and not ledger.consensus  # a disagreement, not an agreement on anything


def test_a_rejected_negation_is_a_point_of_its_own_and_the_original_keeps_its_status():
    ledger = fold(PointLedger(), 1, agreed=[SAFER])
    fold(ledger, 2, disagreed=[NOT_SAFER])

    assert rows(ledger) == [(SAFER, AGREED), (NOT_SAFER, CONTESTED)]
    assert ledger.score == 50.0 and not ledger.consensus


def test_templated_points_are_six_points_not_one():
    teams = ["database", "frontend", "billing", "search", "payments", "mobile"]
    ledger = fold(PointLedger(), 1, agreed=[f"Migrate the {team} service before the March release" for team in teams])
    fold(ledger, 2, disagreed=["Migrate the billing service before the March release"])

    assert len(ledger.points) == 6
    assert [point.status for point in ledger.points] == [AGREED, AGREED, CONTESTED, AGREED, AGREED, AGREED]
    assert ledger.score == 83.3 and not ledger.consensus


def test_a_new_point_with_another_number_is_a_new_point_and_the_first_keeps_its_status():
    ledger = fold(PointLedger(), 1, disagreed=["The rewrite cuts hosting costs by 30%"])
    fold(ledger, 2, agreed=["The rewrite cuts hosting costs by 10%"])

    assert rows(ledger) == [
        ("The rewrite cuts hosting costs by 30%", CONTESTED),
        ("The rewrite cuts hosting costs by 10%", AGREED),
    ]
    assert not ledger.consensus


def test_a_new_point_restating_an_open_one_takes_the_later_status_and_keeps_the_first_wording():
    ledger = fold(PointLedger(), 1, disagreed=["Index funds beat most active managers over ten years"])
    fold(ledger, 2, agreed=["Over ten years, most active managers are beaten by index funds"])

    [point] = ledger.points
    assert (point.text, point.status, point.first_round, point.last_round, point.was_contested) == (
        "Index funds beat most active managers over ten years",
        AGREED,
        1,
        2,
        True,
    )


def test_unverifiable_points_count_against_the_score_and_block_consensus():
    ledger = fold(
        PointLedger(),
        1,
        agreed=["Rust prevents use-after-free bugs"],
        unverifiable=[
            "Rust will overtake C in embedded work by 2030",
            "Most C vulnerabilities come from memory errors",
            "Rust teams ship fewer security patches",
        ],
    )
    assert ledger.score == 25.0 and not ledger.consensus


@pytest.mark.parametrize(
    "points",
    [
        {},
        {"unverifiable": ["Rust will overtake C in embedded work by 2030"]},
        {"disagreed": ["Rust compiles faster than C"]},
    ],
)
def test_a_ledger_without_an_agreed_point_is_never_consensus(points):
    ledger = fold(PointLedger(), 1, **points)
    assert ledger.score == 0.0 and not ledger.consensus


def test_consensus_needs_every_unverifiable_point_resolved():
    ledger = fold(PointLedger(), 1, agreed=[SAFER, HIRING], unverifiable=["Rust will overtake C by 2030"])
    assert not ledger.consensus
    fold(ledger, 2, agreed=["Rust will overtake C by 2030"])
    assert ledger.score == 100.0 and ledger.consensus


@pytest.mark.parametrize(
    ("critic_says", "challenge"),
    [
        ({"agreed": [HIRING], "unverifiable": [FACT]}, UNVERIFIABLE),
        ({"agreed": [HIRING], "disagreed": [FACT]}, CONTESTED),
        ({"agreed": [HIRING, NOT_FACT]}, "negated"),
    ],
)
def test_an_established_fact_is_challenged_never_flipped(critic_says, challenge):
    ledger = fold(with_fact(), 1, **critic_says)

    fact = ledger.points[0]
    assert (fact.status, fact.from_memory) == (AGREED, True)
    assert [(c.round, c.status) for c in fact.challenges] == [(1, challenge)]
    assert [point.text for point in ledger.points] == [FACT, HIRING]  # the negation is not a point of its own
    assert ledger.score == 100.0


def test_agreeing_with_an_established_fact_is_not_a_challenge():
    ledger = fold(with_fact(), 1, agreed=[FACT])
    assert ledger.points[0].challenges == [] and ledger.points[0].status == AGREED


def test_the_critics_confidence_is_kept_per_point_from_its_latest_assessment():
    ledger = fold(PointLedger(), 1, agreed=[SAFER], confidence=0.6)
    fold(ledger, 2, agreed=[SAFER], confidence=0.9)
    fold(ledger, 2, disagreed=[HIRING])

    assert [point.confidence for point in ledger.points] == [0.9, None]


def test_a_confidence_given_as_a_percentage_is_read_as_a_fraction_and_nonsense_is_refused():
    def read(confidence):
        return AgreementAssessment.model_validate(by_reference(assessment(agreed=[SAFER], confidence=confidence), {}))

    assert read(80).new_points[0].confidence == 0.8
    with pytest.raises(ValidationError):
        read(-3)
    assert read(None).new_points[0].confidence is None
    by_id = {"points": [{"id": "P1", "status": "accepted", "confidence": 70}], "overall": "strong"}
    assert AgreementAssessment.model_validate(by_id).points[0].confidence == 0.7


def test_a_ledger_stored_before_confidence_supersession_and_challenges_still_loads():
    stored = [
        {
            "text": SAFER,
            "status": "agreed",
            "note": "It holds.",
            "first_round": 1,
            "last_round": 2,
            "was_contested": True,
            "from_memory": False,
        }
    ]
    ledger = PointLedger.from_dicts(stored)
    fold(ledger, 3, disagreed=[SAFER], confidence=0.7)

    assert rows(ledger) == [(SAFER, CONTESTED)] and ledger.points[0].confidence == 0.7
    assert PointLedger.from_dicts(ledger.as_dicts()).as_dicts() == ledger.as_dicts()
