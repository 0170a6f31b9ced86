"""The verdict truth table (debates/regime.py), one row per rule per mode: each mode's records, as
the mode keeps them, through the one function that names where a debate landed."""

import pytest

from debates.regime import (
    REGIME_LABELS,
    analyst_critic_evidence,
    collaborate_evidence,
    dialogue_evidence,
    graph_evidence,
    map_regime,
    regime_label,
    verdict,
)

AGREE = {"Ada": "YES", "Bram": "YES"}
ALL_DEPENDS = {"Ada": "NUANCED", "Bram": "NUANCED"}
SPLIT = {"Ada": "YES", "Bram": "NO"}
MIXED = {"Ada": "YES", "Bram": "NUANCED"}
ONE_MISSING = {"Ada": "YES", "Bram": ""}
SPLIT_ONE_MISSING = {"Ada": "YES", "Bram": "NO", "Cleo": ""}


def card(*positions, resolved=False):
    return {"positions": list(positions), "resolved": resolved}


def dispute(status):
    return {"status": status, "question": "Is gold a hedge?", "sides": {"YES": ["Ada"], "NO": ["Bram"]}}


def dialogue(cards, sides):
    return dialogue_evidence(cards, sides)


def graph(disputes=(), settled=0, common_ground=False, built=True, sides=AGREE):
    return graph_evidence(
        disputes=list(disputes), settled=settled, common_ground=common_ground, built=built, sides=sides
    )


def ac(agreed=0, contested=0, unverifiable=0, analyst=True, critic=True):
    return analyst_critic_evidence(
        agreed=agreed,
        contested=contested,
        unverifiable=unverifiable,
        analyst_recorded=analyst,
        critic_recorded=critic,
    )


def collab(architect=True, reviewer=True, artifact="synthesised", open_questions=0):
    return collaborate_evidence(
        answered={"Architect": architect, "Reviewer": reviewer}, artifact=artifact, open_questions=open_questions
    )


ROWS = [
    # ── dialogue: crux cards and the final stances in the position ledger ──
    ("dialogue", "1 every card an open YES/NO split", dialogue([card("YES", "NO")] * 2, AGREE), "polarized"),
    (
        "dialogue",
        "2 an open split beside a resolved card",
        dialogue([card("YES", "NO"), card("YES", "NO", resolved=True)], AGREE),
        "partial",
    ),
    ("dialogue", "3 an open NUANCED-vs-NO card", dialogue([card("NUANCED", "NO")], AGREE), "partial"),
    ("dialogue", "5 no card, final answers YES against NO", dialogue([], SPLIT), "disagreement_no_crux"),
    (
        "dialogue",
        "5 a split decides even with an answer missing",
        dialogue([], SPLIT_ONE_MISSING),
        "disagreement_no_crux",
    ),
    ("dialogue", "6 no card, a final answer never recorded", dialogue([], ONE_MISSING), "undetermined"),
    (
        "dialogue",
        "6 resolved cards, a final answer never recorded",
        dialogue([card("YES", "NO", resolved=True)], ONE_MISSING),
        "undetermined",
    ),
    ("dialogue", "6 nobody's answer at all", dialogue([], {}), "undetermined"),
    ("dialogue", "7 NUANCED beside YES", dialogue([], MIXED), "partial"),
    ("dialogue", "8 all recorded, all YES, no card", dialogue([], AGREE), "consensus"),
    (
        "dialogue",
        "8 all recorded, all NUANCED, a resolved card",
        dialogue([card("YES", "NO", resolved=True)], ALL_DEPENDS),
        "consensus",
    ),
    # ── graph: the argument map's disputes and the final stances ──
    ("graph", "1 every dispute open, nothing held in common", graph([dispute("open")] * 2), "polarized"),
    ("graph", "2 an open dispute beside a decided one", graph([dispute("open"), dispute("resolved")]), "partial"),
    ("graph", "2 an open dispute beside a concession", graph([dispute("open")], settled=1), "partial"),
    ("graph", "2 an open dispute beside real common ground", graph([dispute("open")], common_ground=True), "partial"),
    ("graph", "4 no crystallization built the map", graph(built=False, sides=AGREE), "undetermined"),
    (
        "graph",
        "5 no open dispute, final answers YES against NO",
        graph([dispute("resolved")], sides=SPLIT),
        "disagreement_no_crux",
    ),
    ("graph", "6 an empty map and a final answer never recorded", graph(sides=ONE_MISSING), "undetermined"),
    (
        "graph",
        "6 a decided map and a final answer never recorded",
        graph([dispute("resolved")], sides=ONE_MISSING),
        "undetermined",
    ),
    ("graph", "7 no open dispute, NUANCED beside YES", graph([dispute("resolved")], sides=MIXED), "partial"),
    ("graph", "8 no open dispute, all recorded and agreeing", graph([dispute("resolved")], sides=AGREE), "consensus"),
    # ── Analyst/Critic: the point ledger's counts and the two roles' final answers ──
    ("analyst_critic", "1 every point contested", ac(contested=2), "polarized"),
    ("analyst_critic", "2 contested beside agreed", ac(agreed=3, contested=1), "partial"),
    ("analyst_critic", "3 1 agreed and 3 unverifiable is not consensus", ac(agreed=1, unverifiable=3), "partial"),
    ("analyst_critic", "3 9 agreed and 1 unverifiable is not consensus", ac(agreed=9, unverifiable=1), "partial"),
    ("analyst_critic", "3 unverifiable only", ac(unverifiable=2), "partial"),
    (
        "analyst_critic",
        "3 an open point speaks even with the Critic's answer missing",
        ac(agreed=1, unverifiable=1, critic=False),
        "partial",
    ),
    ("analyst_critic", "4 an empty ledger", ac(), "undetermined"),
    ("analyst_critic", "4 an empty ledger, no answer recorded", ac(analyst=False, critic=False), "undetermined"),
    ("analyst_critic", "6 all agreed, the last assessment skipped", ac(agreed=3, critic=False), "undetermined"),
    ("analyst_critic", "6 all agreed, the Analyst's last answer missing", ac(agreed=3, analyst=False), "undetermined"),
    ("analyst_critic", "8 all agreed, both recorded", ac(agreed=3), "consensus"),
    # ── Collaborate: the revised answers, the artifact and its open questions ──
    ("collaborate", "3 the artifact lists open questions", collab(open_questions=2), "partial"),
    (
        "collaborate",
        "3 an open question speaks even with an answer missing",
        collab(reviewer=False, open_questions=1),
        "partial",
    ),
    ("collaborate", "4 no artifact was written", collab(artifact=""), "undetermined"),
    ("collaborate", "6 the stand-in artifact: nothing merged the answers", collab(artifact="stand-in"), "undetermined"),
    ("collaborate", "6 the Reviewer's revision never recorded", collab(reviewer=False), "undetermined"),
    ("collaborate", "8 both revised, merged, no open question", collab(), "consensus"),
]


@pytest.mark.parametrize(("mode", "row", "evidence", "expected"), ROWS, ids=[f"{m}: {r}" for m, r, _, _ in ROWS])
def test_each_row_of_the_table(mode, row, evidence, expected):
    assert verdict(evidence) == expected


def test_every_mode_covers_every_verdict_it_can_reach():
    reached = {}
    for mode, _, evidence, _ in ROWS:
        reached.setdefault(mode, set()).add(verdict(evidence))
    assert reached["dialogue"] == reached["graph"] == set(REGIME_LABELS)
    assert reached["analyst_critic"] == {"polarized", "partial", "undetermined", "consensus"}
    assert reached["collaborate"] == {"partial", "undetermined", "consensus"}


def test_consensus_only_when_every_answer_is_recorded_and_nothing_is_open():
    for _, _, evidence, _ in ROWS:
        if verdict(evidence) == "consensus":
            assert evidence.answers == "agree" and evidence.recorded
            assert not (evidence.open_splits or evidence.open_differences)


def test_the_live_map_never_calls_an_empty_map_consensus():
    assert map_regime(open_disputes=0, decided=0, common_ground=False) == "undetermined"
    assert map_regime(open_disputes=0, decided=1, common_ground=False) == "consensus"
    assert map_regime(open_disputes=2, decided=0, common_ground=False) == "polarized"
    assert map_regime(open_disputes=1, decided=0, common_ground=True) == "partial"


def test_the_basis_says_what_each_verdict_rests_on():
    assert "Bram (not recorded)" in graph(sides=ONE_MISSING).basis
    assert "0 disputes, 0 open" in graph(sides=ONE_MISSING).basis
    assert "no crystallization could build it" in graph(built=False).basis
    assert "1 agreed, 0 contested, 3 unverifiable" in ac(agreed=1, unverifiable=3).basis
    assert "the Critic's assessment of it not recorded" in ac(agreed=3, critic=False).basis
    assert "2 open questions" in collab(open_questions=2).basis
    assert "the Reviewer's not recorded" in collab(reviewer=False).basis


def test_every_verdict_has_a_human_label_and_no_key_is_shown_raw():
    for key, label in REGIME_LABELS.items():
        assert regime_label(key) == label and "_" not in label
    assert regime_label("disagreement_no_crux") == "Disagreement, no crux isolated"
    assert regime_label("something_new") == "something new"
