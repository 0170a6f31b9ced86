"""Where a debate landed, computed from what was recorded, never asked of a model. Pure.

Every mode's verdict comes from here, and only from here: each mode turns what it records into one
``Evidence`` (``dialogue_evidence``, ``graph_evidence``, ``analyst_critic_evidence``,
``collaborate_evidence``) and ``verdict`` reads it through one table. ``REGIME_LABELS`` is the only
place a verdict's name is written; pages, exports and the CLI all print that label, never the key.

What each mode records, in the table's terms:

    mode            final answers (one per participant)     open split         open difference       settled
    dialogue        each persona's last YES/NO/NUANCED      unresolved YES-vs-  unresolved card whose  resolved cards,
                    on the question decided on, with the    NO crux card        sides differ otherwise unresolved alike
                    condition a NUANCED one hangs on
    graph           as dialogue                             open map dispute    -                     decided disputes,
                                                                                                      concessions
    Analyst/Critic  the Analyst's last answer and the       contested point    unverifiable point    agreed point
                    Critic's assessment of it (the round's
                    assessment recorded)
    Collaborate     each role's revised answer (the two     a key decision the  a key decision the    a key decision the
                    compared: the review of the key         other role's        other role's          other role's
                    decisions by id)                        revision rejects    revision leaves       revision accepts
                                                                                undecided

The question decided on: planning turns the topic into the yes/no question the verdict is about
(the topic itself when it is one: "What should the city do about traffic?" becomes "Should the
city charge drivers a fee to enter the centre at peak hours?"), and each persona's final answer
in the position ledger is its answer to that question. Where no yes/no question fits the topic (a
plan with several parts, a budget to split), there is no final answer to judge: the verdict says
so and the agreement is reported per crux (``crux_agreement``). Analyst/Critic and Collaborate
judge their own records (the point ledger, the key decisions), whatever the question.

The table, first row that applies:

    #   what was recorded                                                   verdict
    0   no yes/no question fits the topic (agreement reported per crux)     Not a yes/no question
    1   an open split, and nothing settled, different or held in common    Polarized
    2   an open split beside anything else                                  Partial agreement
    3   an open difference (no open split)                                  Partial agreement
    4   nothing open, and the mode's own record is empty or was never      Undetermined
        built (no map, an empty point ledger, no key decision compared)
    5   nothing open, final answers split YES against NO                    Disagreement, no crux isolated
    6   nothing open, a final answer never recorded                         Undetermined
    7   nothing open, final answers NUANCED beside YES or NO                Partial agreement
    8   nothing open, all NUANCED on different conditions (listed)          Partial agreement
    9   nothing open, all NUANCED on the same condition (listed)            Conditional agreement
    10  nothing open, every final answer recorded and all YES or all NO     Consensus

So consensus needs every participant's final answer recorded and agreeing AND nothing open, and an
empty map or ledger is never consensus by itself. An unverifiable point is open against consensus
(Proflow files it as contested): 1 agreed and 3 unverifiable points is a partial agreement. The
two agreements are Consensus and Conditional agreement (``AGREEMENTS``); everything else is not.

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
- final stances all NUANCED are an agreement only when they hang on the same condition (compared
  by the caller, by reference where the condition is something Faultline holds, else by meaning:
  debates/conditions.py): a conditional agreement, the condition listed, never "Consensus"; on
  different conditions (or one never said) it is a partial agreement, the conditions listed;
- NUANCED beside YES or NO, without YES against NO, is a partial agreement;
- an unresolved card whose sides differ only by a NUANCED (NUANCED vs NO) is an open difference:
  a partial agreement, never a consensus. Only an unresolved YES vs NO card is an open split.

Collaborate: each key decision of the two first answers (listed by id) is agreed when the other
role's revision accepts it, disputed when it rejects it, undecided when it does neither, dropped
when its own role withdraws it; the artifact's headings never enter. Every decision disputed is
polarized (the Architect's "Yes: rewrite it this year" against the Reviewer's "No: do not");
all agreed is a consensus; a mix is a partial agreement; a revision missing, or a review that
could not be made, is undetermined.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

CONSENSUS, PARTIAL, POLARIZED = "consensus", "partial", "polarized"
CONDITIONAL = "conditional"  # every final answer NUANCED, hung on the same condition
NO_CRUX = "disagreement_no_crux"  # stances still split, no card (or only resolved ones) to show why
UNDETERMINED = "undetermined"  # nothing to judge from
NOT_YES_NO = "not_yes_no"  # no yes/no question fits the topic: agreement per crux only

# How pages, exports and the CLI name each regime: the only place these names are written.
REGIME_LABELS = {
    CONSENSUS: "Consensus",
    CONDITIONAL: "Conditional agreement",
    PARTIAL: "Partial agreement",
    POLARIZED: "Polarized",
    NO_CRUX: "Disagreement, no crux isolated",
    UNDETERMINED: "Undetermined",
    NOT_YES_NO: "Not a yes/no question",
}
# The verdicts that are an agreement (what ends an Analyst/Critic debate's rounds, what a
# measure of fake or missed consensus counts).
AGREEMENTS = frozenset({CONSENSUS, CONDITIONAL})

YES, NO, NUANCED = "YES", "NO", "NUANCED"
SIDES = (YES, NO, NUANCED)
SIDE_LABELS = {YES: "yes", NO: "no", NUANCED: "it depends"}

# What the final answers say, taken together.
AGREE, CONDITIONAL_ANSWERS, SPLIT, MIXED, UNKNOWN = "agree", "conditional", "split", "mixed", "unknown"
# How each crux of a topic no yes/no question fits came out.
CRUX_AGREED, CRUX_DISAGREED, CRUX_PARTLY = "agree", "disagree", "partial"


def regime_label(regime: str) -> str:
    """The human name of a verdict (an unknown key is shown readable, never raw)."""
    return REGIME_LABELS.get(regime, str(regime or "").replace("_", " "))


@dataclass(frozen=True)
class Evidence:
    """What a mode recorded, in the verdict table's terms (see the module docstring).

    answers: the final answers taken together (AGREE, CONDITIONAL_ANSWERS, SPLIT, MIXED or UNKNOWN);
    open_splits / open_differences: disputes still open with the sides opposed / otherwise apart;
    settled: disputes decided, or held in common, beside them (an open split alone is polarized);
    recorded: False when the mode's own record is empty or was never built;
    yes_no: False when no yes/no question fits the topic (row 0: agreement per crux only);
    conditions: what the NUANCED final answers hang on, each once, listed with the verdict;
    basis: one sentence on what the verdict rests on, for the results page and the exports."""

    answers: str
    open_splits: int = 0
    open_differences: int = 0
    settled: int = 0
    recorded: bool = True
    yes_no: bool = True
    conditions: tuple[str, ...] = ()
    basis: str = ""


def verdict(evidence: Evidence) -> str:
    """The table, first row that applies."""
    if not evidence.yes_no:
        return NOT_YES_NO
    if evidence.open_splits:
        return POLARIZED if not (evidence.settled or evidence.open_differences) else PARTIAL
    if evidence.open_differences:
        return PARTIAL
    if not evidence.recorded:
        return UNDETERMINED
    return {
        AGREE: CONSENSUS,
        CONDITIONAL_ANSWERS: CONDITIONAL,
        SPLIT: NO_CRUX,
        MIXED: PARTIAL,
        UNKNOWN: UNDETERMINED,
    }[evidence.answers]


def is_opposed(positions: list[str]) -> bool:
    return YES in positions and NO in positions


@dataclass(frozen=True)
class FinalAnswers:
    """Each participant's final answer to the question decided on.

    sides: name -> YES, NO, NUANCED ("" when never recorded); conditions: name -> what a NUANCED
    answer hangs on, as first recorded ("" when not said); same_condition: the NUANCED answers'
    conditions were compared (by reference, else by meaning: debates/conditions.py) and found to
    be one condition."""

    sides: dict[str, str]
    conditions: dict[str, str] = field(default_factory=dict)
    same_condition: bool = False

    def listed_conditions(self) -> tuple[str, ...]:
        """The conditions the NUANCED answers hang on, each once (one, when they are the same)."""
        said = [self.conditions.get(name, "").strip() for name, side in self.sides.items() if side == NUANCED]
        said = [condition for condition in said if condition]
        if self.same_condition:
            return tuple(said[:1])
        return tuple(dict.fromkeys(said))


def stances_verdict(sides: dict[str, str] | FinalAnswers) -> str:
    """sides: persona name -> final side ("" when never recorded), or the FinalAnswers.

    split: someone says YES and someone NO (whatever the others said or did not say);
    agree: every persona's side is recorded and they are all YES or all NO;
    conditional: every side recorded, all NUANCED, on the same condition;
    mixed: NUANCED beside YES or NO, or all NUANCED on different (or unknown) conditions;
    unknown: no split, but someone's side is missing (or nobody is there)."""
    answers = sides if isinstance(sides, FinalAnswers) else FinalAnswers(sides=sides)
    known = {side for side in answers.sides.values() if side in SIDES}
    if is_opposed(list(known)):
        return SPLIT
    if not answers.sides or len([s for s in answers.sides.values() if s in SIDES]) < len(answers.sides):
        return UNKNOWN
    if known == {NUANCED}:
        said = all(answers.conditions.get(name, "").strip() for name in answers.sides)
        return CONDITIONAL_ANSWERS if said and answers.same_condition else MIXED
    return AGREE if len(known) == 1 else MIXED


def crux_agreement(positions: list[str], *, resolved: bool) -> str:
    """How one crux came out, for a topic no yes/no question fits: agreed when it was resolved or
    everyone is on one side, disagreed when YES meets NO, partly otherwise (NUANCED beside a side)."""
    if resolved or len(set(positions)) <= 1:
        return CRUX_AGREED
    return CRUX_DISAGREED if is_opposed(positions) else CRUX_PARTLY


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _sides_text(answers: FinalAnswers) -> str:
    if not answers.sides:
        return "no final stances recorded"

    def said(name: str, side: str) -> str:
        if side not in SIDES:
            return f"{name} (not recorded)"
        condition = answers.conditions.get(name, "").strip() if side == NUANCED else ""
        return f"{name} {side} (if {condition})" if condition else f"{name} {side}"

    return ", ".join(said(name, side) for name, side in answers.sides.items())


def _stances_basis(evidence: str, answers: FinalAnswers, *, yes_no: bool = True) -> str:
    if not yes_no:
        return f"Rests on {evidence}: no yes/no question fits the topic, so there is no final answer to compare."
    return f"Rests on {evidence} and the final stances in the position ledger: {_sides_text(answers)}."


def _answers(sides: dict[str, str] | FinalAnswers) -> FinalAnswers:
    return sides if isinstance(sides, FinalAnswers) else FinalAnswers(sides=sides)


# ── dialogue ──────────────────────────────────────────────────────────────────────────────────


def _card_state(cards: list[dict]) -> tuple[list[dict], list[dict]]:
    """(open splits, open differences): unresolved cards with YES vs NO, and unresolved cards whose
    sides differ otherwise (NUANCED vs YES or NO)."""
    unresolved = [card for card in cards if not card["resolved"]]
    splits = [card for card in unresolved if is_opposed(card["positions"])]
    differences = [card for card in unresolved if not is_opposed(card["positions"]) and len(set(card["positions"])) > 1]
    return splits, differences


def dialogue_evidence(cards: list[dict], sides: dict[str, str] | FinalAnswers, *, yes_no: bool = True) -> Evidence:
    """cards: [{"positions": ["YES", "NO"], "resolved": bool}, ...]; sides: persona name -> final
    side, or the FinalAnswers with their conditions; yes_no: False when no yes/no question fits
    the topic. No card is not an empty record: the final stances are the dialogue's own evidence."""
    answers = _answers(sides)
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
        answers=stances_verdict(answers),
        open_splits=len(splits),
        open_differences=len(differences),
        settled=len(cards) - len(splits) - len(differences),
        yes_no=yes_no,
        conditions=answers.listed_conditions(),
        basis=_stances_basis(what, answers, yes_no=yes_no),
    )


def regime_for(cards: list[dict], sides: dict[str, str] | FinalAnswers) -> str:
    """The dialogue's verdict (see dialogue_evidence)."""
    return verdict(dialogue_evidence(cards, sides))


def regime_basis(cards: list[dict], sides: dict[str, str] | FinalAnswers) -> str:
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
    *,
    disputes: list[dict],
    settled: int,
    common_ground: bool,
    built: bool,
    answers: dict[str, str] | FinalAnswers | None = None,
    sides: dict[str, str] | None = None,
    yes_no: bool = True,
) -> Evidence:
    """disputes: the map's disputes ({"status": "open" | "resolved", ...}); settled: disputes that
    dissolved because one side conceded; built: some crystallization built the map (False when
    every one failed: the map then says nothing); answers: the final answers (FinalAnswers, or
    ``sides``: persona name -> final side); yes_no: False when no yes/no question fits the topic."""
    final = _answers(answers if answers is not None else sides or {})
    open_count = len([d for d in disputes if d.get("status") == "open"])
    evidence = _map_evidence(
        open_disputes=open_count,
        decided=len(disputes) - open_count + settled,
        common_ground=common_ground,
        built=built,
        answers=stances_verdict(final),
    )
    what = f"the argument map ({_plural(len(disputes), 'dispute')}, {open_count} open)"
    if not built:
        what = "the argument map (no crystallization could build it)"
    return replace(
        evidence,
        yes_no=yes_no,
        conditions=final.listed_conditions(),
        basis=_stances_basis(what, final, yes_no=yes_no),
    )


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


# What the review of the two revisions made of each key decision (orchestration/modes/collaborate/).
AGREED, DISPUTED, UNDECIDED, DROPPED = "agreed", "disputed", "undecided", "dropped"
DECISION_OUTCOMES = (AGREED, DISPUTED, UNDECIDED, DROPPED)


def collaborate_evidence(*, answered: dict[str, bool], artifact: str, decisions: list[str] | None) -> Evidence:
    """answered: role -> its revised answer is recorded; artifact: "synthesised" (the two answers
    merged into one document), "stand-in" (the synthesis failed: the two answers side by side) or
    "" (none written), named in the basis only: the verdict never rests on the artifact;
    decisions: each key decision's outcome (AGREED, DISPUTED, UNDECIDED, DROPPED), as the review
    of the revisions read them by id, or None when no review could be made (no revision, the key
    decisions or the review unreadable); with a revision missing they are counted in the basis
    only, and the verdict is undetermined."""
    reviewed = decisions is not None
    outcomes = [outcome for outcome in decisions or [] if outcome in DECISION_OUTCOMES]
    held = [outcome for outcome in outcomes if outcome != DROPPED]
    both = bool(answered) and all(answered.values())
    roles = ", ".join(f"the {role}'s {'recorded' if done else 'not recorded'}" for role, done in answered.items())
    if reviewed:
        counted = ", ".join(
            f"{outcomes.count(outcome)} {outcome}" for outcome in DECISION_OUTCOMES if outcome in outcomes
        )
        compared = f"{_plural(len(outcomes), 'key decision')}" + (f" ({counted})" if counted else "")
    else:
        compared = "no key decision compared (the two revisions could not be compared)"
    document = {
        "synthesised": "the artifact merges them",
        "stand-in": "the stand-in artifact sets them side by side (the synthesis failed)",
    }.get(artifact, "no artifact was written")
    # A verdict compares the two revised answers: with one missing, what the other did with each
    # decision is on record (the basis counts it) but decides nothing.
    judged = held if both else []
    return Evidence(
        answers=AGREE if both and reviewed else UNKNOWN,
        open_splits=judged.count(DISPUTED),
        open_differences=judged.count(UNDECIDED),
        settled=judged.count(AGREED),
        recorded=reviewed and bool(judged),
        basis=f"Rests on the revised answers ({roles or 'none'}) and {compared}; {document}, and no verdict rests on it.",
    )


# ── the verdict in one sentence ───────────────────────────────────────────────────────────────

# What each verdict means, said to someone who has not read the table above.
VERDICT_MEANINGS = {
    CONSENSUS: "every final answer agrees and nothing is left open",
    CONDITIONAL: "every final answer hangs on the same condition",
    PARTIAL: "they agree on part of it, and something is still open or answered differently",
    POLARIZED: "they split on an open question, with nothing settled beside it",
    NO_CRUX: "their final answers split, but no single question was found to explain why",
    UNDETERMINED: "too little was recorded to judge",
    NOT_YES_NO: "no single yes/no question fits the topic, so agreement is reported per crux",
}
CRUX_WORDS = {CRUX_AGREED: "agreed", CRUX_DISAGREED: "disagreed", CRUX_PARTLY: "partly agreed"}


def _plural_word(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _measure(results: dict) -> tuple[str, bool]:
    """The consensus score where the mode keeps one (Analyst/Critic), in parentheses, and whether
    every point it counts was agreed. Nothing when the ledger holds no point: 0% of nothing says
    nothing."""
    score = results.get("score")
    if not isinstance(score, int | float) or isinstance(score, bool) or results.get("points") == []:
        return "", False
    rounds = results.get("rounds")
    after = f" after {_plural_word(rounds, 'round')}" if isinstance(rounds, int) and rounds > 0 else ""
    return f" ({score:.0f}% of the points agreed{after})", score >= 100


def _meaning(regime: str, results: dict, *, all_agreed: bool) -> str:
    """What the verdict means here: its general meaning, with what it rests on that a reader
    needs in the same breath (the conditions, the cruxes, why a full score is no consensus)."""
    conditions = [str(c) for c in results.get("conditions") or [] if str(c).strip()]
    if regime == CONDITIONAL and conditions:
        return f"{VERDICT_MEANINGS[regime]}: {'; '.join(conditions)}"
    if regime == PARTIAL and conditions:
        return f"{VERDICT_MEANINGS[regime]}; the conditions they gave: {'; '.join(conditions)}"
    if regime == NOT_YES_NO:
        cruxes = [c.get("agreement") for c in results.get("per_crux") or [] if isinstance(c, dict)]
        counted = [f"{cruxes.count(key)} {word}" for key, word in CRUX_WORDS.items() if key in cruxes]
        return f"{VERDICT_MEANINGS[regime]}: {', '.join(counted) if counted else 'no crux was found'}"
    if regime == UNDETERMINED and all_agreed:
        return "every point on the ledger was agreed, but a final answer was not recorded"
    if regime == UNDETERMINED and results.get("points"):  # a ledger with points: something was recorded
        return "a final answer was not recorded, so the points agreed so far are no verdict"
    return VERDICT_MEANINGS.get(regime, "")


def verdict_sentence(*, results: dict | None, status: str) -> str:
    """The one sentence every surface says about where a debate landed (the page's header, side
    panels and results, the replay, the summary, the exports, ``rundebate``): the verdict by its
    label and what it means, with the conditions or the cruxes it rests on and the consensus score
    where the mode keeps one, reconciled with how the debate ended, so no two words of it
    contradict each other ("No consensus" beside a full score says why in the same sentence). ""
    while it has not ended. Only this function writes it; the surfaces print it as it is.

    results: the debate's stored results (``regime``; ``conditions`` and ``per_crux`` where the
    verdict has them; Analyst/Critic also ``score``, ``rounds``, ``points`` and its own
    ``status``: consensus, max_rounds or stopped); status: the debate's (completed, stopped,
    failed, ...)."""
    results = results if isinstance(results, dict) else {}
    regime = str(results.get("regime") or "")
    if status == "failed":
        return "This debate failed before it reached a verdict."
    if status not in ("completed", "stopped"):
        return ""
    if not regime:
        return "This debate was stopped before anything could be judged." if status == "stopped" else ""
    measured, all_agreed = _measure(results)
    meaning = _meaning(regime, results, all_agreed=all_agreed)
    said = f"{regime_label(regime)}{measured}" + (f": {meaning}" if meaning else "")
    if status == "stopped" or results.get("status") == "stopped":
        return f"Stopped before the end; on what was said, {said[0].lower()}{said[1:]}."
    if results.get("status") == "max_rounds" and regime not in AGREEMENTS:
        if all_agreed:  # the score says everything agreed: the sentence says why that is no consensus
            return f"{said}, so the rounds ran out without a consensus."
        return f"No consensus within the rounds allowed. {said}."
    return f"{said}."
