"""Whether a piece of ledger text is fit to be fed back into a prompt. Pure.

The position ledger is written by a model reading each turn, and its text comes back to the
personas as "You've argued: ...". A small model sometimes writes degenerate text there: a word
or clause looping ("No, no, no, no"), nothing, a template's placeholder ("{{stance}}"), or its own
scaffolding ("As an AI, I cannot...", "You've argued: ..." echoed back). Fed back, it teaches the
persona to say the same; so it is neither stored nor shown to a model.
"""

from __future__ import annotations

import re

# A word or a short phrase (up to four words) said three or more times in a row.
_LOOP = re.compile(r"\b(\w+(?:\W+\w+){0,3})(?:\W+\1\b){2,}", re.IGNORECASE)
# An unfilled template slot: {{stance}}, {stance}, ${stance}, <stance>, [insert stance].
_PLACEHOLDER = re.compile(
    r"\{\{.*?\}\}|\$?\{\s*\w+\s*\}|<\s*[a-z_]+\s*>|\[\s*(?:insert|your|placeholder|todo|tbd)\b[^\]]*\]",
    re.IGNORECASE,
)
# The model speaking as a model, or saying there is nothing: not a participant's position.
_SCAFFOLDING = re.compile(
    r"^\W*(?:as an? (?:ai|language model|assistant)\b|i(?:'m| am) (?:sorry|an ai|a language model)\b"
    r"|i cannot (?:help|assist|provide|determine)\b|(?:n/?a|none|null|nil|unknown|no answer|not stated|"
    r"not specified|no (?:clear )?(?:stance|position|change))\W*$"
    r"|(?:you've argued|you've conceded|your position moved|overall_stance|aspect_position)\s*:)",
    re.IGNORECASE,
)


_CONJUNCTION = re.compile(r"^(?:and|but|so|or|because|yet)\s+")


def _clauses(text: str) -> list[str]:
    parts = re.split(r"[.;,!?\n]+|\s[—–-]\s", text.lower())
    words = (" ".join(re.findall(r"\w+", part)) for part in parts)
    return [_CONJUNCTION.sub("", clause) for clause in words if clause]


def is_degenerate(text: str | None) -> bool:
    """True for ledger text no prompt should be given: empty, a loop, a repeated clause, an
    unfilled placeholder, or the model's own scaffolding."""
    stripped = (text or "").strip()
    if not re.search(r"\w", stripped):
        return True
    folded = stripped.replace("’", "'").replace("‘", "'")
    if _PLACEHOLDER.search(folded) or _SCAFFOLDING.search(folded) or _LOOP.search(folded):
        return True
    clauses = [clause for clause in _clauses(folded) if len(clause.split()) >= 2]
    return len(clauses) != len(set(clauses))


def usable(text: str | None) -> str | None:
    """``text`` stripped, or None when it is degenerate."""
    return None if is_degenerate(text) else (text or "").strip()
