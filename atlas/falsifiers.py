"""Whether a crux card's falsifier ("what would change my mind") is a prediction the world can
settle, and if so, what would settle it. Plain Python: no Django; conservative on purpose.

A falsifier is checkable when it names an observable change AND an anchor that makes it checkable
later: a movement or a bound (rises, falls, exceeds, below, stays, doubles, beats…) together with a
number, a share, a span of time or a date ("if hash rate fell for two years straight", "inflation
above 4% by 2027"). It is not checkable when it asks for argument rather than observation (a better
argument, a convincing case, more evidence, a study that shows…), says nothing would move them,
hedges ("hard to say", "it depends"), or looks back at a past that cannot happen again ("if the
seventies had gone differently"). When in doubt it says no: the owner can still keep the card's
falsifier as a prediction by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MOVEMENT = re.compile(
    r"\b(?:ris(?:e|es|ing)|rose|fall(?:s|ing)?|fell|drop(?:s|ped|ping)?|climb(?:s|ed)?|declin(?:e|es|ed|ing)|"
    r"grow(?:s|n)?|grew|shrink(?:s)?|shrank|exceed(?:s|ed)?|surpass(?:es|ed)?|top(?:s|ped)?|"
    r"above|below|under|over|more than|less than|fewer than|at least|at most|"
    r"doubl(?:e|es|ed)|halv(?:e|es|ed)|tripl(?:e|es|ed)|stay(?:s|ed)?|remain(?:s|ed)?|"
    r"reach(?:es|ed)?|hit(?:s)?|beat(?:s)?|outperform(?:s|ed)?|underperform(?:s|ed)?|"
    r"default(?:s|ed)?|collaps(?:e|es|ed)|recover(?:s|ed)?|turn(?:s|ed)? negative|turn(?:s|ed)? positive)\b",
    re.IGNORECASE,
)
_NUMBER_WORDS = (
    r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|fifty|hundred|"
    r"a dozen|a decade|half|twice|a third|a quarter"
)
_ANCHOR = re.compile(
    r"\d|%|\bper ?cent\b|"
    rf"\b(?:{_NUMBER_WORDS})\b|"
    r"\b(?:in a row|straight|consecutive|next (?:year|quarter|decade|election|winter|summer)|"
    r"by (?:the end of )?(?:19|20)\d\d|within (?:a|the next) (?:year|decade|quarter))\b",
    re.IGNORECASE,
)
# Asking for argument, not observation; or no condition at all.
_NOT_AN_OBSERVATION = re.compile(
    r"\b(?:argument|arguments|convincing|convince[sd]?|persuad\w*|case for|reasoning|explain\w*|"
    r"evidence|proof|prove[sn]?|study|studies|research|paper|papers|expert|experts|consensus|"
    r"data showing|someone show\w*|anyone show\w*)\b",
    re.IGNORECASE,
)
_NOTHING = re.compile(
    r"\b(?:nothing|no amount|never change|could never|would never|cannot imagine|can't imagine|"
    r"hard to say|not sure|unsure|it depends|depends on|don't know|do not know)\b",
    re.IGNORECASE,
)
# A past that cannot be observed again: "if X had happened".
_COUNTERFACTUAL = re.compile(r"\b(?:had (?:been|gone|happened|not|never|\w+ed)|would have)\b", re.IGNORECASE)
# "I would change my mind if", "Seeing", "Evidence that": the lead-in before the condition.
_LEAD_IN = re.compile(
    r"^(?:i(?:'d| would)? (?:change my mind|reconsider|update|move)(?: my view)?\s*(?:if|when)\s+|"
    r"(?:only )?if\s+|seeing\s+|when\s+|should\s+)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PredictionDraft:
    claim: str  # the condition, as a statement the world can make true or false
    settled_by: str  # what to look at to settle it


def condition(falsifier: str) -> str:
    """The falsifier without its lead-in ("I would change my mind if …") or a closing full stop."""
    text = " ".join((falsifier or "").split()).strip().rstrip(".").strip()
    text = _LEAD_IN.sub("", text, count=1).strip()
    return text[:1].upper() + text[1:]


def falsifier_checkable(falsifier: str) -> bool:
    text = " ".join((falsifier or "").split())
    if len(text) < 12 or _NOTHING.search(text) or _COUNTERFACTUAL.search(text):
        return False
    if _NOT_AN_OBSERVATION.search(text):
        return False
    return bool(_MOVEMENT.search(text) and _ANCHOR.search(text))


def prediction_draft(falsifier: str) -> PredictionDraft | None:
    """The falsifier as a prediction, or None when it is not (surely) checkable."""
    if not falsifier_checkable(falsifier):
        return None
    claim = condition(falsifier)
    return PredictionDraft(claim=claim, settled_by=f"Check whether this happened: {claim[:1].lower() + claim[1:]}.")
