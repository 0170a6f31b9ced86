"""The point ledger folds each round's assessment so the page says what the Critic said: an
accepted negation replaces the point it negates, distinct points stay distinct, unverifiable
points count against consensus, and an established fact is challenged, never flipped."""

import pytest
from pydantic import ValidationError

from orchestration.modes.analyst_critic.consensus import AGREED, CONTESTED, SUPERSEDED, UNVERIFIABLE, Point, PointLedger
from orchestration.schemas import AgreementAssessment
from tests.analyst_critic.conftest import assessment

SAFER = "Rust is safer than C for systems code"
NOT_SAFER = "Rust is not safer than C for systems code"
HIRING = "Rust's borrow checker slows down new hires"
FACT = "Low costs matter most for long-run returns"
NOT_FACT = "Low costs do not matter most for long-run returns"


def fold(ledger: PointLedger, number: int, said: str = "", **points) -> PointLedger:
    """``said``: the Analyst's answer of that round, which the Critic assessed."""
    ledger.fold(AgreementAssessment.model_validate(assessment(**points)), number, proposer_text=said)
    return ledger


# The Analyst comes round, in its own words.
CONCEDES = "I was wrong there: Rust is not safer than C for systems code, once you count unsafe blocks."
CONCEDES_EVERY = "Fair enough. No service needs its own database, on reflection."


def rows(ledger: PointLedger) -> list[tuple]:
    return [(point.text, point.status, point.supersedes, point.superseded_by) for point in ledger.points]


def with_fact() -> PointLedger:
    return PointLedger([Point(FACT, AGREED, "Established in an earlier debate", 0, 0, from_memory=True)])


def test_an_accepted_negation_is_a_new_point_that_supersedes_the_old_one():
    ledger = fold(PointLedger(), 1, agreed=[SAFER], disagreed=[HIRING])
    fold(ledger, 2, said=CONCEDES, agreed=[NOT_SAFER, HIRING])

    assert rows(ledger) == [
        (SAFER, SUPERSEDED, None, 2),
        (HIRING, AGREED, None, None),
        (NOT_SAFER, AGREED, 0, None),
    ]
    assert [point.text for point in ledger.with_status(AGREED)] == [HIRING, NOT_SAFER]
    assert ledger.score == 100.0 and ledger.consensus  # agreed on the negation, and only on it


def test_an_accepted_denial_of_every_case_supersedes_the_universal_point():
    ledger = fold(PointLedger(), 1, agreed=["Every service needs its own database"])
    fold(ledger, 2, said=CONCEDES_EVERY, agreed=["No service needs its own database"])

    assert [(point.status, point.supersedes) for point in ledger.points] == [(SUPERSEDED, None), (AGREED, 0)]


@pytest.mark.parametrize(
    "analyst_said",
    [
        "Rust is safer than C for systems code, and I keep that.",
        "1. Rust is safer than C for systems code, not slower. 2. Hiring is harder.",
        "",  # not known: never taken for a concession
    ],
)
def test_agreeing_with_the_negation_of_what_the_analyst_still_holds_contests_the_point(analyst_said):
    ledger = fold(PointLedger(), 1, agreed=[SAFER, HIRING])
    fold(ledger, 2, said=analyst_said, agreed=[NOT_SAFER, HIRING])

    assert rows(ledger) == [(SAFER, CONTESTED, None, None), (HIRING, AGREED, None, None)]
    assert NOT_SAFER in ledger.points[0].note
    assert ledger.score == 50.0 and not ledger.consensus  # a disagreement, not an agreement on anything


def test_a_rejected_negation_is_a_point_of_its_own_and_the_original_keeps_its_status():
    ledger = fold(PointLedger(), 1, agreed=[SAFER])
    fold(ledger, 2, disagreed=[NOT_SAFER])

    assert rows(ledger) == [(SAFER, AGREED, None, None), (NOT_SAFER, CONTESTED, None, None)]
    assert ledger.score == 50.0 and not ledger.consensus


def test_a_negated_point_that_comes_back_supersedes_its_negation_in_turn():
    ledger = fold(PointLedger(), 1, agreed=[SAFER])
    fold(ledger, 2, said=CONCEDES, agreed=[NOT_SAFER])
    fold(ledger, 3, said="Back to where I started: Rust is safer than C for systems code.", agreed=[SAFER + "."])

    assert [(point.status, point.supersedes) for point in ledger.points] == [
        (SUPERSEDED, None),
        (SUPERSEDED, 0),
        (AGREED, 1),
    ]
    assert len(ledger.with_status(AGREED)) == 1


def test_templated_points_are_six_points_not_one():
    teams = ["database", "frontend", "billing", "search", "payments", "mobile"]
    ledger = fold(PointLedger(), 1, agreed=[f"Migrate the {team} service before the March release" for team in teams])
    fold(ledger, 2, disagreed=["Migrate the billing service before the March release"])

    assert len(ledger.points) == 6
    assert [point.status for point in ledger.points] == [AGREED, AGREED, CONTESTED, AGREED, AGREED, AGREED]
    assert ledger.score == 83.3 and not ledger.consensus


def test_a_point_with_another_number_is_a_new_point_and_the_first_keeps_its_status():
    ledger = fold(PointLedger(), 1, disagreed=["The rewrite cuts hosting costs by 30%"])
    fold(ledger, 2, agreed=["The rewrite cuts hosting costs by 10%"])

    assert [(point.text, point.status) for point in ledger.points] == [
        ("The rewrite cuts hosting costs by 30%", CONTESTED),
        ("The rewrite cuts hosting costs by 10%", AGREED),
    ]
    assert not ledger.consensus


def test_a_restated_point_takes_the_later_status_and_keeps_its_first_wording():
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
    read = AgreementAssessment.model_validate(assessment(agreed=[SAFER], confidence=80))
    assert read.agreed[0].confidence == 0.8
    with pytest.raises(ValidationError):
        AgreementAssessment.model_validate(assessment(agreed=[SAFER], confidence=-3))
    assert AgreementAssessment.model_validate(assessment(agreed=[SAFER])).agreed[0].confidence is None


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
    fold(ledger, 3, said=CONCEDES, agreed=[NOT_SAFER], confidence=0.7)

    assert rows(ledger) == [(SAFER, SUPERSEDED, None, 1), (NOT_SAFER, AGREED, 0, None)]
    assert PointLedger.from_dicts(ledger.as_dicts()).as_dicts() == ledger.as_dicts()
