"""Where a debate landed, computed from its crux cards (not asked of a model). Pure."""

from __future__ import annotations

CONSENSUS, PARTIAL, POLARIZED = "consensus", "partial", "polarized"
# Nothing to judge from: graph mode when no crystallization of the map ever succeeded.
UNDETERMINED = "undetermined"

# How pages and exports name each regime.
REGIME_LABELS = {
    CONSENSUS: "Consensus",
    PARTIAL: "Partial agreement",
    POLARIZED: "Polarized",
    UNDETERMINED: "Undetermined (the argument map could not be built)",
}


def is_opposed(positions: list[str]) -> bool:
    return "YES" in positions and "NO" in positions


def regime_for(cards: list[dict]) -> str:
    """cards: [{"positions": ["YES", "NO"], "resolved": bool}, ...]

    consensus: no unresolved card has one side saying YES and the other NO;
    polarized: every card is such an open, opposed split;
    partial: anything in between.
    """
    open_splits = [card for card in cards if is_opposed(card["positions"]) and not card["resolved"]]
    if not open_splits:
        return CONSENSUS
    if len(open_splits) == len(cards):
        return POLARIZED
    return PARTIAL
