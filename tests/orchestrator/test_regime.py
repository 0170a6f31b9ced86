from debates.regime import NO_CRUX, FinalAnswers, regime_basis, regime_for, stances_verdict

AGREE = {"Ada": "YES", "Bram": "YES"}
SPLIT = {"Ada": "YES", "Bram": "NO"}


def card(*positions, resolved=False):
    return {"positions": list(positions), "resolved": resolved}


def test_no_card_and_agreeing_final_stances_is_consensus():
    assert regime_for([], AGREE) == "consensus"
    assert regime_for([card("YES", "NO", resolved=True)], AGREE) == "consensus"


def test_everyone_answering_it_depends_is_a_consensus_only_on_one_condition():
    # Issue 39: all NUANCED is a conditional agreement when they hang it on the same condition,
    # else a partial one (tests/debates/test_verdict_truth_table.py has the whole table).
    nuanced = {"Ada": "NUANCED", "Bram": "NUANCED"}
    assert regime_for([], nuanced) == "partial"
    one = FinalAnswers(
        sides=nuanced, conditions={"Ada": "fees fund buses", "Bram": "fees fund buses"}, same_condition=True
    )
    assert regime_for([], one) == "conditional"


def test_contradicting_final_stances_and_no_card_is_not_consensus():
    assert regime_for([], SPLIT) == NO_CRUX
    assert regime_for([], {"Ada": "YES", "Bram": "NO", "Cleo": ""}) == NO_CRUX
    # Resolved cards do not make a consensus the final stances deny.
    assert regime_for([card("YES", "NO", resolved=True)], SPLIT) == NO_CRUX


def test_missing_final_stances_leave_it_undetermined():
    assert regime_for([], {}) == "undetermined"
    assert regime_for([], {"Ada": "YES", "Bram": ""}) == "undetermined"


def test_an_open_nuanced_card_is_a_partial_agreement_never_consensus():
    assert regime_for([card("NUANCED", "NO")], AGREE) == "partial"
    assert regime_for([card("NUANCED", "NO", resolved=True)], AGREE) == "consensus"
    assert regime_for([card("NUANCED", "NUANCED")], AGREE) == "consensus"


def test_nuanced_beside_yes_is_a_partial_agreement_not_a_split():
    assert stances_verdict({"Ada": "YES", "Bram": "NUANCED"}) == "mixed"
    assert regime_for([], {"Ada": "YES", "Bram": "NUANCED"}) == "partial"


def test_every_card_an_open_split_is_polarized():
    assert regime_for([card("YES", "NO")] * 2, SPLIT) == "polarized"
    assert regime_for([card("YES", "NO")] * 2, AGREE) == "polarized"


def test_a_mix_is_partial():
    assert regime_for([card("YES", "NO"), card("YES", "YES")], SPLIT) == "partial"


def test_the_basis_names_the_cards_and_every_final_stance():
    basis = regime_basis([card("YES", "NO"), card("YES", "NO", resolved=True)], {"Ada": "YES", "Bram": ""})
    assert "2 crux cards (1 open split, 0 open difference, 1 resolved)" in basis
    assert "Ada YES, Bram (not recorded)" in basis
    assert "no crux card" in regime_basis([], SPLIT)
