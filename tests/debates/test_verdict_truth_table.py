"""The verdict truth table (debates/regime.py), one row per rule per mode: each mode's records, as
the mode keeps them, through the one function that names where a debate landed.

The rows on open questions are the ones a capable model makes common: "What should the city do
about traffic?" answered "it depends" by everyone, each on a condition of its own or on the same
one in other words; a plan no yes/no question fits; a collaboration whose two revisions answer
"Yes: rewrite it this year" and "No: do not", whatever the artifact's headings say."""

import pytest

from debates.regime import (
    AGREEMENTS,
    REGIME_LABELS,
    FinalAnswers,
    analyst_critic_evidence,
    collaborate_evidence,
    crux_agreement,
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


# What each NUANCED answer hangs on, as the ledger recorded it, and whether they are the same
# condition (compared by the caller: by reference, else by meaning; debates/conditions.py).
BUSES = "the fee revenue is spent on buses"
SAME = {"Ada": BUSES, "Bram": "every cent the charge raises goes to buses"}
DIFFERENT = {"Ada": BUSES, "Bram": "the ring road is finished first"}


def answers(sides, conditions=None, same=False):
    return FinalAnswers(sides=sides, conditions=conditions or {}, same_condition=same)


def dialogue(cards, sides, conditions=None, same=False, yes_no=True):
    return dialogue_evidence(cards, answers(sides, conditions, same), yes_no=yes_no)


def graph(
    disputes=(), settled=0, common_ground=False, built=True, sides=AGREE, conditions=None, same=False, yes_no=True
):
    return graph_evidence(
        disputes=list(disputes),
        settled=settled,
        common_ground=common_ground,
        built=built,
        answers=answers(sides, conditions, same),
        yes_no=yes_no,
    )


def ac(agreed=0, contested=0, unverifiable=0, analyst=True, critic=True):
    return analyst_critic_evidence(
        agreed=agreed,
        contested=contested,
        unverifiable=unverifiable,
        analyst_recorded=analyst,
        critic_recorded=critic,
    )


def collab(*outcomes, architect=True, reviewer=True, artifact="synthesised", reviewed=True):
    """outcomes: each key decision's, as the review read the two revisions (agreed: the other role's
    revision accepts it; disputed: rejects it; undecided: neither; dropped: its own role withdrew
    it). reviewed=False: the review could not be made. The artifact's headings are not an input."""
    return collaborate_evidence(
        answered={"Architect": architect, "Reviewer": reviewer},
        artifact=artifact,
        decisions=list(outcomes) if reviewed else None,
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
    ("dialogue", "10 all recorded, all YES, no card", dialogue([], AGREE), "consensus"),
    (
        "dialogue",
        "10 all recorded, all NO, a resolved card",
        dialogue([card("YES", "NO", resolved=True)], {"Ada": "NO", "Bram": "NO"}),
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
    ("graph", "10 no open dispute, all recorded and agreeing", graph([dispute("resolved")], sides=AGREE), "consensus"),
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
    ("analyst_critic", "10 all agreed, both recorded", ac(agreed=3), "consensus"),
    # ── dialogue and graph on an open question ("What should the city do about traffic?") ──
    (
        "dialogue",
        "9 all NUANCED, the same condition in other words",
        dialogue([], ALL_DEPENDS, SAME, same=True),
        "conditional",
    ),
    ("dialogue", "8 all NUANCED, different conditions", dialogue([], ALL_DEPENDS, DIFFERENT), "partial"),
    (
        "dialogue",
        "8 all NUANCED, one condition never said",
        dialogue([], ALL_DEPENDS, {"Ada": BUSES, "Bram": ""}),
        "partial",
    ),
    ("dialogue", "8 all NUANCED, nothing known of the conditions", dialogue([], ALL_DEPENDS), "partial"),
    (
        "dialogue",
        "5 a YES/NO split on the question planned from an open topic",
        dialogue([], SPLIT),
        "disagreement_no_crux",
    ),
    (
        "dialogue",
        "0 no yes/no question fits: per crux only, whatever the answers",
        dialogue([card("YES", "NO"), card("YES", "YES", resolved=True)], AGREE, yes_no=False),
        "not_yes_no",
    ),
    ("dialogue", "0 no yes/no question fits and no crux found", dialogue([], {}, yes_no=False), "not_yes_no"),
    (
        "dialogue",
        "9 a resolved card beside the same condition",
        dialogue([card("NUANCED", "NUANCED", resolved=True)], ALL_DEPENDS, SAME, same=True),
        "conditional",
    ),
    (
        "graph",
        "9 an empty map, all NUANCED on the same condition",
        graph(sides=ALL_DEPENDS, conditions=SAME, same=True),
        "conditional",
    ),
    (
        "graph",
        "8 a decided map, all NUANCED on different conditions",
        graph([dispute("resolved")], sides=ALL_DEPENDS, conditions=DIFFERENT),
        "partial",
    ),
    (
        "graph",
        "5 a YES/NO split on the planned question",
        graph([dispute("resolved")], sides=SPLIT),
        "disagreement_no_crux",
    ),
    ("graph", "0 no yes/no question fits", graph([dispute("open")], yes_no=False), "not_yes_no"),
    # ── Analyst/Critic on an open question: the point ledger decides, whatever the question ──
    ("analyst_critic", "an open question, every point accepted", ac(agreed=2), "consensus"),
    ("analyst_critic", "an open question, a point still contested", ac(agreed=2, contested=1), "partial"),
    # ── Collaborate: the key decisions, as each role's revision takes the other's ──
    (
        "collaborate",
        "1 every key decision disputed: Yes-rewrite against No-do-not",
        collab("disputed", "disputed", "disputed"),
        "polarized",
    ),
    (
        "collaborate",
        "1 a split stays a split when the artifact has no open-questions heading",
        collab("disputed", "disputed", artifact="synthesised"),
        "polarized",
    ),
    ("collaborate", "2 some accepted, one disputed", collab("agreed", "agreed", "disputed"), "partial"),
    ("collaborate", "3 one decision neither accepted nor rejected", collab("agreed", "undecided"), "partial"),
    ("collaborate", "4 the review could not be made", collab(reviewed=False), "undetermined"),
    ("collaborate", "4 every decision withdrawn by its own role", collab("dropped", "dropped"), "undetermined"),
    (
        "collaborate",
        "6 the Reviewer's revision never recorded",
        collab("agreed", reviewer=False),
        "undetermined",
    ),
    ("collaborate", "10 each accepts the other's decisions", collab("agreed", "agreed", "agreed"), "consensus"),
    (
        "collaborate",
        "10 agreement stands beside a withdrawn alternative",
        collab("agreed", "dropped", "agreed"),
        "consensus",
    ),
    (
        "collaborate",
        "10 agreement stands with the stand-in artifact (the synthesis failed)",
        collab("agreed", "agreed", artifact="stand-in"),
        "consensus",
    ),
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
    assert reached["collaborate"] == {"polarized", "partial", "undetermined", "consensus"}


def test_consensus_only_when_every_answer_is_recorded_and_nothing_is_open():
    for _, _, evidence, _ in ROWS:
        if verdict(evidence) == "consensus":
            assert evidence.answers == "agree" and evidence.recorded and evidence.yes_no
            assert not (evidence.open_splits or evidence.open_differences)


def test_all_nuanced_is_an_agreement_only_on_the_same_condition_and_never_called_consensus():
    for _, _, evidence, _ in ROWS:
        if evidence.answers in ("conditional", "mixed") and verdict(evidence) != "not_yes_no":
            assert verdict(evidence) in ("conditional", "partial")
    assert verdict(dialogue([], ALL_DEPENDS, SAME, same=True)) == "conditional"
    assert verdict(dialogue([], ALL_DEPENDS, SAME, same=False)) == "partial"
    assert {"consensus", "conditional"} == AGREEMENTS


def test_the_conditions_are_listed_with_the_verdict():
    same = dialogue([], ALL_DEPENDS, SAME, same=True)
    different = dialogue([], ALL_DEPENDS, DIFFERENT)

    assert same.conditions == (BUSES,)  # one condition, said once, in the words first recorded
    assert different.conditions == (BUSES, "the ring road is finished first")
    assert "Ada NUANCED (if the fee revenue is spent on buses)" in different.basis
    assert "Bram NUANCED (if the ring road is finished first)" in different.basis


def test_no_yes_no_question_says_so_and_rests_on_the_cruxes():
    evidence = dialogue([card("YES", "NO"), card("YES", "YES", resolved=True)], AGREE, yes_no=False)

    assert "no yes/no question fits the topic" in evidence.basis
    assert "2 crux cards" in evidence.basis


def test_each_crux_of_an_open_topic_is_read_agreed_disagreed_or_partly():
    assert crux_agreement(["YES", "NO"], resolved=False) == "disagree"
    assert crux_agreement(["YES", "YES"], resolved=False) == "agree"
    assert crux_agreement(["NUANCED", "NO"], resolved=False) == "partial"
    assert crux_agreement(["YES", "NO"], resolved=True) == "agree"


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
    assert "3 key decisions (1 agreed, 1 disputed, 1 undecided)" in collab("agreed", "disputed", "undecided").basis
    assert "the Reviewer's not recorded" in collab(reviewer=False).basis
    assert "the two revisions could not be compared" in collab(reviewed=False).basis


def test_every_verdict_has_a_human_label_and_no_key_is_shown_raw():
    for key, label in REGIME_LABELS.items():
        assert regime_label(key) == label and "_" not in label
    assert regime_label("disagreement_no_crux") == "Disagreement, no crux isolated"
    assert regime_label("conditional") == "Conditional agreement"
    assert regime_label("not_yes_no") == "Not a yes/no question"
    assert regime_label("something_new") == "something new"
