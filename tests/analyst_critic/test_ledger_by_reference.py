"""Each transition of the Analyst/Critic point ledger, by reference (issue 39): the assessment
names every open point by its id and says what the round did to it (held, accepted, contested,
unverifiable, withdrawn, refined into a narrower wording, negated) and lists the new points. The
ledger checks every id, and closes a point (withdrawn, refined, negated) only on the Analyst's own
words of that round. The score counts the points still held; consensus is the Critic accepting all
of them.

Each case in plain English, with the statuses and the score it leaves."""

from __future__ import annotations

import pytest

from orchestration.modes.analyst_critic.consensus import (
    AGREED,
    CONTESTED,
    NEGATED,
    REFINED,
    UNVERIFIABLE,
    WITHDRAWN,
    Point,
    PointLedger,
)
from orchestration.schemas import AgreementAssessment

LATENCY = "Porting checkout to Rust cuts p99 latency by about a third"
HIRING = "We can hire the engineers we need for it"
ENDPOINTS = "The move goes one endpoint at a time behind the gateway"
STAFFING = "Staffing is feasible with a six-month ramp"

ROUND_2 = """Refined on your evaluation.

1. On the Rust path, tail latency at checkout drops by roughly 33 percent, per the same peak replay.
2. Staffing is feasible with a six-month ramp: two of our engineers start Rust training this month.
3. The endpoint-by-endpoint plan behind the gateway stands as agreed."""

COST = "A battery bus costs about 15% less than a diesel one over its life"
WINTER = "Modern battery buses lose no meaningful range in winter"
WITHDRAWS_WINTER = """You're right about the cold, and I withdraw the claim that winter costs no range; it was wrong.

1. Total cost of ownership stays roughly 15% below diesel across the bus's life."""
SILENT_ON_WINTER = "1. Total cost of ownership stays roughly 15% below diesel across the bus's life."

NIGHTLY = "Nightly builds catch regressions as well as per-commit CI does"
REVERSES = (
    "I had this backwards: per-commit CI catches regressions that nightly builds miss for a whole day. "
    "So CI on every commit, not nightly builds."
)
PER_COMMIT = "per-commit checks find regressions a day sooner than nightly runs"


def ledger_of(*rows: tuple[str, str]) -> PointLedger:
    """A ledger as round 1 left it: (wording, status) per point, P1 first."""
    return PointLedger([Point(text, status, "", 1, 1, was_contested=status == CONTESTED) for text, status in rows])


def said(*points: dict, new: tuple[dict, ...] = (), overall: str = "moderate") -> AgreementAssessment:
    return AgreementAssessment.model_validate({"points": list(points), "new_points": list(new), "overall": overall})


def table(ledger: PointLedger) -> list[tuple[str, str, str]]:
    return [(ledger.point_id(index), point.status, point.text) for index, point in enumerate(ledger.points)]


# ── rewording never makes a new point ─────────────────────────────────────────────────────────


def test_a_reworded_point_accepted_by_its_id_is_the_same_point_and_keeps_its_first_wording():
    ledger = ledger_of((LATENCY, AGREED), (HIRING, CONTESTED), (ENDPOINTS, AGREED))

    refused = ledger.fold(
        said({"id": "P1", "status": "accepted"}, {"id": "P3", "status": "held"}), 2, analyst_text=ROUND_2
    )

    assert refused == []
    assert table(ledger) == [("P1", AGREED, LATENCY), ("P2", CONTESTED, HIRING), ("P3", AGREED, ENDPOINTS)]
    assert ledger.score == 66.7 and not ledger.consensus


def test_a_new_point_in_the_same_words_as_an_open_one_is_that_point_not_a_second_one():
    ledger = ledger_of((LATENCY, CONTESTED))

    ledger.fold(said(new=({"text": LATENCY.lower() + ".", "status": "accepted"},)), 2, analyst_text=ROUND_2)

    assert table(ledger) == [("P1", AGREED, LATENCY)]


def test_silence_holds_a_point_as_it_was_and_a_held_point_keeps_its_status():
    ledger = ledger_of((LATENCY, AGREED), (HIRING, CONTESTED))

    ledger.fold(said({"id": "P2", "status": "held"}), 2, analyst_text=ROUND_2)

    assert table(ledger) == [("P1", AGREED, LATENCY), ("P2", CONTESTED, HIRING)]
    assert ledger.score == 50.0


# ── a narrowed point supersedes the broad one ────────────────────────────────────────────────


def test_a_narrowed_point_refines_the_broad_one_which_leaves_the_score():
    ledger = ledger_of((LATENCY, AGREED), (HIRING, CONTESTED), (ENDPOINTS, AGREED))

    refused = ledger.fold(
        said(
            {"id": "P1", "status": "accepted"},
            {
                "id": "P2",
                "status": "refined",
                "new_wording": "staffing works over six months: two retrained, one senior hire",
                "verdict": "accepted",
                "quote": "Staffing is feasible with a six-month ramp",
            },
            {"id": "P3", "status": "accepted"},
            overall="strong",
        ),
        2,
        analyst_text=ROUND_2,
    )

    assert refused == []
    assert table(ledger) == [
        ("P1", AGREED, LATENCY),
        ("P2", REFINED, HIRING),
        ("P3", AGREED, ENDPOINTS),
        ("P4", AGREED, "staffing works over six months: two retrained, one senior hire"),
    ]
    assert (ledger.points[1].superseded_by, ledger.points[3].supersedes) == (3, 1)
    assert ledger.points[3].was_contested  # contested, then agreed in narrower words: a decision
    assert ledger.score == 100.0 and ledger.consensus
    assert [ledger.point_id(index) for index in ledger.open_indices()] == ["P1", "P3", "P4"]


def test_a_narrowed_point_the_critic_still_rejects_stays_open_in_its_new_wording():
    ledger = ledger_of((HIRING, CONTESTED))

    ledger.fold(
        said(
            {
                "id": "P1",
                "status": "refined",
                "new_wording": "staffing within six months",
                "verdict": "contested",
                "quote": "Staffing is feasible with a six-month ramp",
            }
        ),
        2,
        analyst_text=ROUND_2,
    )

    assert table(ledger) == [("P1", REFINED, HIRING), ("P2", CONTESTED, "staffing within six months")]
    assert ledger.score == 0.0 and not ledger.consensus


# ── a withdrawn point closes only on the Analyst's own words ─────────────────────────────────


def test_a_point_the_analyst_withdraws_in_its_own_words_closes_and_leaves_the_score():
    ledger = ledger_of((COST, AGREED), (WINTER, CONTESTED))

    refused = ledger.fold(
        said(
            {"id": "P1", "status": "accepted"},
            {"id": "P2", "status": "withdrawn", "quote": "I withdraw the claim that winter costs no range"},
        ),
        2,
        analyst_text=WITHDRAWS_WINTER,
    )

    assert refused == []
    assert table(ledger) == [("P1", AGREED, COST), ("P2", WITHDRAWN, WINTER)]
    assert ledger.points[1].quote == "I withdraw the claim that winter costs no range"
    assert ledger.score == 100.0 and ledger.consensus


@pytest.mark.parametrize(
    ("case", "quote", "analyst_text", "earlier"),
    [
        ("the Analyst never said it", "I withdraw the claim that winter costs no range", SILENT_ON_WINTER, ()),
        ("no words given", "", WITHDRAWS_WINTER, ()),
        ("words of an earlier round", "I withdraw the claim that winter costs no range", WITHDRAWS_WINTER,
         (WITHDRAWS_WINTER,)),
        ("the point restated, not dropped", WINTER, f"{WINTER}. That has not changed.", ()),
        ("too few words to be a withdrawal", "I withdraw", WITHDRAWS_WINTER, ()),
    ],
)  # fmt: skip
def test_a_withdrawal_the_analyst_did_not_make_is_refused_and_the_point_stays_open(case, quote, analyst_text, earlier):
    ledger = ledger_of((COST, AGREED), (WINTER, CONTESTED))

    refused = ledger.fold(
        said({"id": "P1", "status": "accepted"}, {"id": "P2", "status": "withdrawn", "quote": quote}),
        2,
        analyst_text=analyst_text,
        earlier_analyst_texts=earlier,
    )

    assert len(refused) == 1 and refused[0].startswith("P2"), case
    assert table(ledger) == [("P1", AGREED, COST), ("P2", CONTESTED, WINTER)], case
    assert ledger.score == 50.0 and not ledger.consensus, case  # no consensus bought by a withdrawal


def test_a_narrowing_the_analyst_did_not_say_is_refused_whole():
    ledger = ledger_of((HIRING, CONTESTED))

    refused = ledger.fold(
        said(
            {
                "id": "P1",
                "status": "refined",
                "new_wording": "staffing within six months",
                "verdict": "accepted",
                "quote": "we will hire within six months",
            }
        ),
        2,
        analyst_text=ROUND_2,
    )

    assert len(refused) == 1
    assert table(ledger) == [("P1", CONTESTED, HIRING)]  # neither narrowed nor a new point of its own


# ── a negated point is replaced by its negation ───────────────────────────────────────────────


@pytest.mark.parametrize(("verdict", "status", "score", "consensus"), [("accepted", AGREED, 100.0, True),
                                                                        ("contested", CONTESTED, 0.0, False)])  # fmt: skip
def test_a_point_the_analyst_negates_is_replaced_by_its_negation_which_the_critic_judges(
    verdict, status, score, consensus
):
    ledger = ledger_of((NIGHTLY, CONTESTED))

    ledger.fold(
        said(
            {
                "id": "P1",
                "status": "negated",
                "new_wording": PER_COMMIT,
                "verdict": verdict,
                "quote": "I had this backwards",
            }
        ),
        2,
        analyst_text=REVERSES,
    )

    assert table(ledger) == [("P1", NEGATED, NIGHTLY), ("P2", status, PER_COMMIT)]
    assert (ledger.points[0].superseded_by, ledger.points[1].supersedes) == (1, 0)
    assert (ledger.score, ledger.consensus) == (score, consensus)


# ── every id is checked ───────────────────────────────────────────────────────────────────────


def test_an_unknown_id_is_dropped_and_never_stored():
    ledger = ledger_of((LATENCY, AGREED), (HIRING, CONTESTED))

    refused = ledger.fold(
        said(
            {"id": "P9", "status": "accepted"}, {"id": "P2", "status": "accepted"}, {"id": "X1", "status": "withdrawn"}
        ),
        2,
        analyst_text=ROUND_2,
    )

    assert [reason.split(":")[0] for reason in refused] == ["P9", "X1"]
    assert table(ledger) == [("P1", AGREED, LATENCY), ("P2", AGREED, HIRING)]


def test_a_closed_point_cannot_be_reopened_by_its_id():
    ledger = ledger_of((COST, AGREED), (WINTER, CONTESTED))
    ledger.fold(
        said({"id": "P2", "status": "withdrawn", "quote": "I withdraw the claim that winter costs no range"}),
        2,
        analyst_text=WITHDRAWS_WINTER,
    )

    refused = ledger.fold(said({"id": "P2", "status": "accepted"}), 3, analyst_text="Cost stands as agreed.")

    assert len(refused) == 1 and table(ledger)[1] == ("P2", WITHDRAWN, WINTER)


def test_an_id_given_twice_counts_once_the_first_time():
    ledger = ledger_of((HIRING, CONTESTED))

    refused = ledger.fold(said({"id": "p1", "status": "accepted"}, {"id": "P1", "status": "contested"}), 2)

    assert len(refused) == 1 and table(ledger) == [("P1", AGREED, HIRING)]


# ── the score counts what is open now ─────────────────────────────────────────────────────────


def test_the_score_counts_only_the_points_still_held():
    ledger = PointLedger(
        [
            Point("a", AGREED, "", 1, 1),
            Point("b", REFINED, "", 1, 2, superseded_by=4),
            Point("c", WITHDRAWN, "", 1, 2),
            Point("d", NEGATED, "", 1, 2, superseded_by=5),
            Point("e", CONTESTED, "", 2, 2, supersedes=1),
            Point("f", UNVERIFIABLE, "", 2, 2, supersedes=3),
        ]
    )

    assert ledger.score == round(1 / 3 * 100, 1) and not ledger.consensus
    assert [ledger.point_id(index) for index in ledger.open_indices()] == ["P1", "P5", "P6"]


def test_an_empty_ledger_or_one_with_nothing_agreed_is_never_consensus():
    assert (PointLedger().score, PointLedger().consensus) == (0.0, False)
    withdrawn_only = PointLedger([Point("c", WITHDRAWN, "", 1, 2)])
    assert (withdrawn_only.score, withdrawn_only.consensus) == (0.0, False)


# ── established facts stand ───────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("verdict", "challenge"),
    [
        ({"id": "P1", "status": "contested"}, CONTESTED),
        ({"id": "P1", "status": "unverifiable"}, UNVERIFIABLE),
        ({"id": "P1", "status": "withdrawn", "quote": "I withdraw the claim that winter costs no range"}, WITHDRAWN),
        (
            {
                "id": "P1",
                "status": "negated",
                "new_wording": "low costs matter little",
                "verdict": "accepted",
                "quote": "I withdraw the claim that winter costs no range",
            },
            NEGATED,
        ),
    ],
)
def test_an_established_fact_is_challenged_never_changed(verdict, challenge):
    fact = Point("Low costs matter most for long-run returns", AGREED, "Established", 0, 0, from_memory=True)
    ledger = PointLedger([fact])

    ledger.fold(said(verdict), 1, analyst_text=WITHDRAWS_WINTER)

    assert [(point.status, point.from_memory) for point in ledger.points] == [(AGREED, True)]
    assert [(c.round, c.status) for c in ledger.points[0].challenges] == [(1, challenge)]


def test_a_ledger_stored_before_points_were_judged_by_reference_still_loads_and_folds():
    stored = [
        {"text": LATENCY, "status": "agreed", "note": "It holds.", "first_round": 1, "last_round": 1},
        {"text": "Rust is safer", "status": "superseded", "note": "", "first_round": 1, "last_round": 2,
         "superseded_by": 2},
        {"text": "Rust is not safer", "status": "agreed", "note": "", "first_round": 2, "last_round": 2,
         "supersedes": 1},
    ]  # fmt: skip
    ledger = PointLedger.from_dicts(stored)

    assert [ledger.point_id(index) for index in ledger.open_indices()] == ["P1", "P3"]
    ledger.fold(said({"id": "P1", "status": "contested"}), 3)
    assert ledger.score == 50.0
    assert PointLedger.from_dicts(ledger.as_dicts()).as_dicts() == ledger.as_dicts()
