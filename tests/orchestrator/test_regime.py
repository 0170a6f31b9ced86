from debates.regime import regime_for


def test_no_open_split_is_consensus():
    assert regime_for([]) == "consensus"
    assert regime_for([{"positions": ["YES", "NUANCED"], "resolved": False}]) == "consensus"
    assert regime_for([{"positions": ["YES", "NO"], "resolved": True}]) == "consensus"


def test_every_card_an_open_split_is_polarized():
    assert regime_for([{"positions": ["YES", "NO"], "resolved": False}] * 2) == "polarized"


def test_a_mix_is_partial():
    cards = [{"positions": ["YES", "NO"], "resolved": False}, {"positions": ["YES", "YES"], "resolved": False}]
    assert regime_for(cards) == "partial"
