"""Where a debate landed, computed from what was recorded, never asked of a model. Pure.

A verdict rests on two kinds of evidence:

- the crux cards (dialogue mode) or the argument map (graph mode): what the disputes came to;
- the final stances in the position ledger: each persona's last recorded answer to the debate's
  question (YES, NO or NUANCED), so a debate in which nobody found a crux, but everyone kept
  contradicting everyone, is never reported as a consensus.

Consensus is claimed only when the final stances agree AND no card is an open difference. Stances
that are still split with no card to show for it are "disagreement, no crux isolated": the honest
answer when the detector never opened a room. When a persona's final stance was never recorded
(the extraction failed, or the debate stopped early) and nothing else decides it, the verdict is
"undetermined", not consensus.

NUANCED, on purpose: it is a side of its own ("it depends", "partly"). It does not contradict YES or
NO, so it never makes a split (only YES against NO does), but it does not agree with them either:
- final stances all NUANCED is a consensus (they agree that it depends);
- NUANCED beside YES or NO, without YES against NO, is a partial agreement;
- an unresolved card whose sides differ only by a NUANCED (NUANCED vs NO) is an open difference:
  a partial agreement, never a consensus. Only an unresolved YES vs NO card is an open split.
"""

from __future__ import annotations

CONSENSUS, PARTIAL, POLARIZED = "consensus", "partial", "polarized"
NO_CRUX = "disagreement_no_crux"  # stances still split, no card (or only resolved ones) to show why
UNDETERMINED = "undetermined"  # nothing to judge from

# How pages and exports name each regime: the only place these names are written.
REGIME_LABELS = {
    CONSENSUS: "Consensus",
    PARTIAL: "Partial agreement",
    POLARIZED: "Polarized",
    NO_CRUX: "Disagreement, no crux isolated",
    UNDETERMINED: "Undetermined (too little was recorded to judge)",
}

YES, NO, NUANCED = "YES", "NO", "NUANCED"
SIDES = (YES, NO, NUANCED)
SIDE_LABELS = {YES: "yes", NO: "no", NUANCED: "it depends"}

# What the final stances say, taken together.
AGREE, SPLIT, MIXED, UNKNOWN = "agree", "split", "mixed", "unknown"


def is_opposed(positions: list[str]) -> bool:
    return YES in positions and NO in positions


def stances_verdict(sides: dict[str, str]) -> str:
    """sides: persona name -> final side ("" when never recorded).

    split: someone says YES and someone NO (whatever the others said or did not say);
    agree: every persona's side is recorded and they are all the same;
    mixed: NUANCED beside YES or NO; unknown: no split, but someone's side is missing."""
    known = {side for side in sides.values() if side in SIDES}
    if is_opposed(list(known)):
        return SPLIT
    if not sides or len([s for s in sides.values() if s in SIDES]) < len(sides):
        return UNKNOWN
    return AGREE if len(known) == 1 else MIXED


def _card_state(cards: list[dict]) -> tuple[list[dict], list[dict]]:
    """(open splits, open differences): unresolved cards with YES vs NO, and unresolved cards whose
    sides differ otherwise (NUANCED vs YES or NO)."""
    unresolved = [card for card in cards if not card["resolved"]]
    splits = [card for card in unresolved if is_opposed(card["positions"])]
    differences = [card for card in unresolved if not is_opposed(card["positions"]) and len(set(card["positions"])) > 1]
    return splits, differences


def regime_for(cards: list[dict], sides: dict[str, str]) -> str:
    """cards: [{"positions": ["YES", "NO"], "resolved": bool}, ...]; sides: persona name -> final side.

    polarized: every card is an open split; partial: some open split or open difference beside
    other cards, or final stances that only partly agree; no crux: no open card but the final
    stances are split; consensus: no open card and the final stances agree; undetermined: no open
    card and a final stance missing."""
    splits, differences = _card_state(cards)
    if splits:
        return POLARIZED if len(splits) == len(cards) else PARTIAL
    if differences:
        return PARTIAL
    return {AGREE: CONSENSUS, SPLIT: NO_CRUX, MIXED: PARTIAL, UNKNOWN: UNDETERMINED}[stances_verdict(sides)]


def regime_with_map(map_regime: str, sides: dict[str, str]) -> str:
    """Graph mode: the map's own regime, unless it claims a consensus the final stances deny.

    A map with no open dispute is evidence in itself (each stance on it was placed from a turn),
    so missing final stances do not undo it; stances split YES against NO do."""
    if map_regime != CONSENSUS:
        return map_regime
    verdict = stances_verdict(sides)
    return {SPLIT: NO_CRUX, MIXED: PARTIAL}.get(verdict, CONSENSUS)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _sides_text(sides: dict[str, str]) -> str:
    if not sides:
        return "no final stances recorded"
    return ", ".join(f"{name} {side if side in SIDES else '(not recorded)'}" for name, side in sides.items())


def regime_basis(cards: list[dict], sides: dict[str, str], *, graph: dict | None = None) -> str:
    """One sentence on what the verdict rests on, for the results page and the exports."""
    if graph is not None:
        disputes = graph.get("disputes", [])
        open_count = len([d for d in disputes if d.get("status") == "open"])
        evidence = f"the argument map ({_plural(len(disputes), 'dispute')}, {open_count} open)"
    elif cards:
        splits, differences = _card_state(cards)
        resolved = len([card for card in cards if card["resolved"]])
        evidence = (
            f"{_plural(len(cards), 'crux card')} ({len(splits)} open split, {len(differences)} open "
            f"difference, {resolved} resolved)"
        )
    else:
        evidence = "no crux card (no crux room produced one)"
    return f"Rests on {evidence} and the final stances in the position ledger: {_sides_text(sides)}."
