"""Where a debate landed, computed from what was recorded, never asked of a model. Pure.

Every mode's verdict comes from here, and only from here: each mode turns what it records into one
``Evidence`` (``dialogue_evidence``, ``graph_evidence``, ``analyst_critic_evidence``,
``collaborate_evidence``) and ``verdict`` reads it through one table. ``REGIME_LABELS`` is the only
place a verdict's name is written; pages, exports and the CLI all print that label, never the key.

What each mode records, in the table's terms:

    mode            final answers (one per participant)     open split         open difference       settled
    dialogue        each persona's last YES/NO/NUANCED      unresolved YES-vs-  unresolved card whose  resolved cards,
                    in the position ledger                  NO crux card        sides differ otherwise unresolved alike
    graph           as dialogue                             open map dispute    -                     decided disputes,
                                                                                                      concessions
    Analyst/Critic  the Analyst's last answer and the       contested point    unverifiable point    agreed point
                    Critic's assessment of it (the round's
                    assessment recorded)
    Collaborate     each role's revised answer, and the     -                  an item under the     -
                    artifact merging them (synthesised,                         artifact's "Open
                    not the stand-in)                                           questions"

The table, first row that applies:

    #  what was recorded                                                    verdict
    1  an open split, and nothing settled, different or held in common     Polarized
    2  an open split beside anything else                                   Partial agreement
    3  an open difference (no open split)                                   Partial agreement
    4  nothing open, and the mode's own record is empty or was never built  Undetermined
       (no map, an empty point ledger, no artifact)
    5  nothing open, final answers split YES against NO                     Disagreement, no crux isolated
    6  nothing open, a final answer never recorded                          Undetermined
    7  nothing open, final answers NUANCED beside YES or NO                 Partial agreement
    8  nothing open, every final answer recorded and all the same           Consensus

So consensus needs every participant's final answer recorded and agreeing AND nothing open, and an
empty map or ledger is never consensus by itself. An unverifiable point is open against consensus
(Proflow files it as contested): 1 agreed and 3 unverifiable points is a partial agreement.

Graph mode: a map the crystallizer built but in which nobody disputed anything is "nothing open";
the final answers then decide, as they do in a dialogue with no crux card (row 4 is for a map no
crystallization could build). The live map panel shows ``map_regime``, the map's own reading
before any final answer: no dispute at all is undetermined there, never consensus.

Analyst/Critic: the two roles' disagreement is the ledger's open points, so two recorded final
answers count as agreeing apart from what is open; the Critic's final answer is recorded only when
the last round's assessment was (a skipped one leaves the Critic's reading of the last answer
unknown). The rounds stop on this verdict's consensus too, so "Consensus reached" and the verdict
never disagree.

NUANCED, on purpose: it is a side of its own ("it depends", "partly"). It does not contradict YES or
NO, so it never makes a split (only YES against NO does), but it does not agree with them either:
- final stances all NUANCED is a consensus (they agree that it depends);
- NUANCED beside YES or NO, without YES against NO, is a partial agreement;
- an unresolved card whose sides differ only by a NUANCED (NUANCED vs NO) is an open difference:
  a partial agreement, never a consensus. Only an unresolved YES vs NO card is an open split.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

CONSENSUS, PARTIAL, POLARIZED = "consensus", "partial", "polarized"
NO_CRUX = "disagreement_no_crux"  # stances still split, no card (or only resolved ones) to show why
UNDETERMINED = "undetermined"  # nothing to judge from

# How pages, exports and the CLI name each regime: the only place these names are written.
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

# What the final answers say, taken together.
AGREE, SPLIT, MIXED, UNKNOWN = "agree", "split", "mixed", "unknown"


def regime_label(regime: str) -> str:
    """The human name of a verdict (an unknown key is shown readable, never raw)."""
    return REGIME_LABELS.get(regime, str(regime or "").replace("_", " "))


@dataclass(frozen=True)
class Evidence:
    """What a mode recorded, in the verdict table's terms (see the module docstring).

    answers: the final answers taken together (AGREE, SPLIT, MIXED or UNKNOWN);
    open_splits / open_differences: disputes still open with the sides opposed / otherwise apart;
    settled: disputes decided, or held in common, beside them (an open split alone is polarized);
    recorded: False when the mode's own record is empty or was never built;
    basis: one sentence on what the verdict rests on, for the results page and the exports."""

    answers: str
    open_splits: int = 0
    open_differences: int = 0
    settled: int = 0
    recorded: bool = True
    basis: str = ""


def verdict(evidence: Evidence) -> str:
    """The table, first row that applies."""
    if evidence.open_splits:
        return POLARIZED if not (evidence.settled or evidence.open_differences) else PARTIAL
    if evidence.open_differences:
        return PARTIAL
    if not evidence.recorded:
        return UNDETERMINED
    return {AGREE: CONSENSUS, SPLIT: NO_CRUX, MIXED: PARTIAL, UNKNOWN: UNDETERMINED}[evidence.answers]


def is_opposed(positions: list[str]) -> bool:
    return YES in positions and NO in positions


def stances_verdict(sides: dict[str, str]) -> str:
    """sides: persona name -> final side ("" when never recorded).

    split: someone says YES and someone NO (whatever the others said or did not say);
    agree: every persona's side is recorded and they are all the same;
    mixed: NUANCED beside YES or NO; unknown: no split, but someone's side is missing (or nobody
    is there)."""
    known = {side for side in sides.values() if side in SIDES}
    if is_opposed(list(known)):
        return SPLIT
    if not sides or len([s for s in sides.values() if s in SIDES]) < len(sides):
        return UNKNOWN
    return AGREE if len(known) == 1 else MIXED


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _sides_text(sides: dict[str, str]) -> str:
    if not sides:
        return "no final stances recorded"
    return ", ".join(f"{name} {side if side in SIDES else '(not recorded)'}" for name, side in sides.items())


def _stances_basis(evidence: str, sides: dict[str, str]) -> str:
    return f"Rests on {evidence} and the final stances in the position ledger: {_sides_text(sides)}."


# ── dialogue ──────────────────────────────────────────────────────────────────────────────────


def _card_state(cards: list[dict]) -> tuple[list[dict], list[dict]]:
    """(open splits, open differences): unresolved cards with YES vs NO, and unresolved cards whose
    sides differ otherwise (NUANCED vs YES or NO)."""
    unresolved = [card for card in cards if not card["resolved"]]
    splits = [card for card in unresolved if is_opposed(card["positions"])]
    differences = [card for card in unresolved if not is_opposed(card["positions"]) and len(set(card["positions"])) > 1]
    return splits, differences


def dialogue_evidence(cards: list[dict], sides: dict[str, str]) -> Evidence:
    """cards: [{"positions": ["YES", "NO"], "resolved": bool}, ...]; sides: persona name -> final
    side. No card is not an empty record: the final stances are the dialogue's own evidence."""
    splits, differences = _card_state(cards)
    if cards:
        resolved = len([card for card in cards if card["resolved"]])
        what = (
            f"{_plural(len(cards), 'crux card')} ({len(splits)} open split, {len(differences)} open "
            f"difference, {resolved} resolved)"
        )
    else:
        what = "no crux card (no crux room produced one)"
    return Evidence(
        answers=stances_verdict(sides),
        open_splits=len(splits),
        open_differences=len(differences),
        settled=len(cards) - len(splits) - len(differences),
        basis=_stances_basis(what, sides),
    )


def regime_for(cards: list[dict], sides: dict[str, str]) -> str:
    """The dialogue's verdict (see dialogue_evidence)."""
    return verdict(dialogue_evidence(cards, sides))


def regime_basis(cards: list[dict], sides: dict[str, str]) -> str:
    """One sentence on what a dialogue's verdict rests on."""
    return dialogue_evidence(cards, sides).basis


# ── graph ─────────────────────────────────────────────────────────────────────────────────────


def _map_evidence(*, open_disputes: int, decided: int, common_ground: bool, built: bool, answers: str) -> Evidence:
    return Evidence(
        answers=answers,
        open_splits=open_disputes,  # a map dispute always has a YES and a NO stance
        settled=decided + (1 if common_ground else 0),
        recorded=built,
    )


def map_regime(*, open_disputes: int, decided: int, common_ground: bool) -> str:
    """The argument map's own reading, before any final answer (the live map panel): open disputes
    as the table says; no open one is consensus only when the map decided something, and a map
    with nothing on it is undetermined. decided: disputes resolved plus disputes settled by a
    concession; common_ground: enough of the map accepted by everyone to make a split partial."""
    evidence = _map_evidence(
        open_disputes=open_disputes, decided=decided, common_ground=common_ground, built=bool(decided), answers=AGREE
    )
    return verdict(evidence)


def graph_evidence(
    *, disputes: list[dict], settled: int, common_ground: bool, built: bool, sides: dict[str, str]
) -> Evidence:
    """disputes: the map's disputes ({"status": "open" | "resolved", ...}); settled: disputes that
    dissolved because one side conceded; built: some crystallization built the map (False when
    every one failed: the map then says nothing); sides: persona name -> final side."""
    open_count = len([d for d in disputes if d.get("status") == "open"])
    evidence = _map_evidence(
        open_disputes=open_count,
        decided=len(disputes) - open_count + settled,
        common_ground=common_ground,
        built=built,
        answers=stances_verdict(sides),
    )
    what = f"the argument map ({_plural(len(disputes), 'dispute')}, {open_count} open)"
    if not built:
        what = "the argument map (no crystallization could build it)"
    return replace(evidence, basis=_stances_basis(what, sides))


# ── Analyst/Critic ────────────────────────────────────────────────────────────────────────────


def analyst_critic_evidence(
    *, agreed: int, contested: int, unverifiable: int, analyst_recorded: bool, critic_recorded: bool
) -> Evidence:
    """The point ledger's counts (contested: still open) and whether each role's final answer is
    recorded: the Analyst's last answer, and the Critic's assessment of it."""
    answers = AGREE if analyst_recorded and critic_recorded else UNKNOWN

    def state(recorded: bool) -> str:
        return "recorded" if recorded else "not recorded"

    basis = (
        f"Rests on the point ledger ({agreed} agreed, {contested} contested, {unverifiable} unverifiable; "
        "an unverifiable point is open) and the final answers: "
        f"the Analyst's {state(analyst_recorded)}, the Critic's assessment of it {state(critic_recorded)}."
    )
    return Evidence(
        answers=answers,
        open_splits=contested,
        open_differences=unverifiable,
        settled=agreed,
        recorded=agreed + contested + unverifiable > 0,
        basis=basis,
    )


# ── Collaborate ───────────────────────────────────────────────────────────────────────────────


def collaborate_evidence(*, answered: dict[str, bool], artifact: str, open_questions: int) -> Evidence:
    """answered: role -> its revised answer is recorded; artifact: "synthesised" (the two answers
    merged into one document), "stand-in" (the synthesis failed: the two answers side by side) or
    "" (none written); open_questions: the items the artifact lists as still open between them."""
    merged = artifact == "synthesised"
    answers = AGREE if answered and all(answered.values()) and merged else UNKNOWN
    roles = ", ".join(f"the {role}'s {'recorded' if done else 'not recorded'}" for role, done in answered.items())
    document = {
        "synthesised": f"the artifact ({_plural(open_questions, 'open question')})",
        "stand-in": "the stand-in artifact (the synthesis failed: nothing merged the two answers)",
    }.get(artifact, "no artifact (none was written)")
    return Evidence(
        answers=answers,
        open_differences=open_questions if merged else 0,
        recorded=bool(artifact),
        basis=f"Rests on {document} and the revised answers: {roles or 'none'}.",
    )


# ── the verdict in one sentence ───────────────────────────────────────────────────────────────

# What each verdict means, said to someone who has not read the table above.
VERDICT_MEANINGS = {
    CONSENSUS: "every final answer agrees and nothing is left open",
    PARTIAL: "they agree on part of it, and something is still open or answered differently",
    POLARIZED: "they split on an open question, with nothing settled beside it",
    NO_CRUX: "their final answers split, but no single question was found to explain why",
    UNDETERMINED: "too little was recorded to judge",
}


def _plural_word(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def verdict_sentence(*, results: dict | None, status: str) -> str:
    """The one sentence every surface says about where a debate landed (the page's header and
    results, the replay, the summary, the exports, ``rundebate``): the verdict by its label and what
    it means, with the consensus score where the mode keeps one, reconciled with how the debate
    ended. "" while it has not ended. Only this function writes it; the surfaces print it as it is.

    results: the debate's stored results (``regime``; Analyst/Critic also ``score``, ``rounds`` and
    its own ``status``: consensus, max_rounds or stopped); status: the debate's (completed, stopped,
    failed, ...)."""
    results = results if isinstance(results, dict) else {}
    regime = str(results.get("regime") or "")
    if status == "failed":
        return "This debate failed before it reached a verdict."
    if status not in ("completed", "stopped"):
        return ""
    if not regime:
        return "This debate was stopped before anything could be judged." if status == "stopped" else ""
    label = regime_label(regime)
    meaning = VERDICT_MEANINGS.get(regime, "")
    score = results.get("score")
    rounds = results.get("rounds")
    measured = ""
    if isinstance(score, int | float) and not isinstance(score, bool):
        measured = f" ({score:.0f}% of the points agreed"
        if isinstance(rounds, int) and rounds > 0:
            measured += f" after {_plural_word(rounds, 'round')}"
        measured += ")"
    if regime == UNDETERMINED:
        said = f"{label}{measured}."
    else:
        said = f"{label}{measured}: {meaning}."
    if status == "stopped" or results.get("status") == "stopped":
        return f"Stopped before the end; on what was said, {said[0].lower()}{said[1:]}"
    if results.get("status") == "max_rounds":
        return f"No consensus within the rounds allowed. {said}"
    return said
