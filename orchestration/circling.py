"""Circling: the main channel restating the same disagreement with nothing new (the original
engine's failure, seeds/past-engines-and-crux-rooms.md), noticed and acted on. Pure Python.

A window of CIRCLING_TURNS dialogue turns on one aspect is circling when, together:
- at least two people are in it and a third of its turns push back (a disagreement, restated);
- nobody brings anything new: no passage of their own writing cited, no figure not heard before,
  no evidence word (a study, a survey, a report...) new to the debate;
- nobody moves: no concession, no "you're right", no proposal, no acceptance;
- the words are the same: each turn's content words were mostly said before in the debate
  (crudely stemmed, so a paraphrase that reuses the terms counts as a restatement).

What the run does (``circling_move``): on to the next aspect while there is one, else the
discussion ends and the closings follow; the reason is shown in the chat and the exports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from debates.blackboard.conversation import SUPPORT, content_words, proposal_in, sentence_reaction, sentences

# The window: how many restating turns in a row make a circle. Three detection windows of three
# messages (crux staging) are what a disagreement needs to earn a crux room; the channel is not
# called circling before a room could have opened on it.
CIRCLING_TURNS = 9
NOVELTY_MAX = 0.5  # no turn of the window says more than this share of new words...
MEAN_NOVELTY_MAX = 0.34  # ...and on average a third at most

_FIGURE = re.compile(r"\b\d+(?:[.,]\d+)*%?")
_EVIDENCE = re.compile(
    r"\b(?:study|studies|survey|report|paper|dataset|statistics|census|audit|trial|experiment|according to|"
    r"published|source|evidence from|data from|figures from)\b",
    re.I,
)
_MOVED = re.compile(
    r"\b(?:i concede|i'll concede|i grant|i'll grant|granted|you're right|you are right|fair point|point taken|"
    r"i was wrong|i stand corrected|i've changed my mind|i have changed my mind|changed my mind|i take your point|"
    r"i now (?:think|accept|agree|see)|on reflection|you've convinced me|you have convinced me)\b",
    re.I,
)
_PUSHBACK = re.compile(
    r"\b(?:no|not|wrong|disagree|mistaken|nonsense|false|doesn't|don't|isn't|aren't|won't|can't|cannot|"
    r"still|again|ignore|ignoring|but|however|nothing)\b|n't\b",
    re.I,
)


@dataclass(frozen=True)
class Said:
    """One main-channel turn as the detector reads it."""

    speaker: str
    text: str
    cited: bool = False  # it cited a passage of the speaker's own corpus


def _new_figures(text: str, heard: set[str]) -> set[str]:
    return set(_FIGURE.findall(text)) - heard


def _moved(text: str) -> bool:
    if _MOVED.search(text) or proposal_in(text):
        return True
    return any(sentence_reaction(sentence) == SUPPORT for sentence in sentences(text))


def circling_reason(history: list[Said], *, fresh: int, window: int = CIRCLING_TURNS) -> str | None:
    """Why the last ``window`` turns of ``history`` are circling, or None when they are not.

    history: the main channel so far, in turn order (openings included: what was said before is
    what a restatement repeats). fresh: how many of its last turns are on the current aspect since
    the run last moved on; a window must lie within them."""
    if window < 2 or fresh < window or len(history) < window:
        return None
    start = len(history) - window
    words: set[str] = set()
    figures: set[str] = set()
    evidence_words: set[str] = set()
    for said in history[:start]:
        words |= content_words(said.text)
        figures |= set(_FIGURE.findall(said.text))
        evidence_words |= {w.lower() for w in _EVIDENCE.findall(said.text)}
    novelty: list[float] = []
    pushing_back = 0
    for said in history[start:]:
        cues = {w.lower() for w in _EVIDENCE.findall(said.text)}
        if said.cited or _new_figures(said.text, figures) or cues - evidence_words:
            return None  # something new came in
        if _moved(said.text):
            return None  # somebody moved
        own = content_words(said.text)
        novelty.append(len(own - words) / len(own) if own else 0.0)
        pushing_back += bool(_PUSHBACK.search(said.text))
        words |= own
        figures |= set(_FIGURE.findall(said.text))
        evidence_words |= cues
    speakers = list(dict.fromkeys(said.speaker for said in history[start:]))
    if len(speakers) < 2 or pushing_back * 3 < window:
        return None
    if max(novelty) > NOVELTY_MAX or sum(novelty) / window > MEAN_NOVELTY_MAX:
        return None
    return (
        f"{' and '.join([', '.join(speakers[:-1]), speakers[-1]])} restated the same disagreement for {window} "
        f"turns with no new evidence and no one moving."
    )


@dataclass(frozen=True)
class Move:
    action: str  # "next_aspect" | "ended"
    slots_skipped: int


def circling_move(*, aspect_index: int, aspects: int, next_slot: int, per_aspect: int, total: int) -> Move | None:
    """What the run does about a circle noticed before dialogue slot ``next_slot``: move to the next
    aspect while there is one, else end the discussion. None when it would change nothing (the
    aspect or the dialogue ends at this slot anyway)."""
    if next_slot >= total:
        return None
    next_aspect_starts = (aspect_index + 1) * per_aspect
    if aspect_index + 1 < aspects and next_aspect_starts < total:
        skipped = next_aspect_starts - next_slot
        return Move("next_aspect", skipped) if skipped > 0 else None
    return Move("ended", total - next_slot)
