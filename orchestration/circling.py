"""Circling: the main channel restating the same disagreement with nothing new (the original
engine's failure, seeds/past-engines-and-crux-rooms.md), noticed and acted on. Pure Python.

A window of CIRCLING_TURNS dialogue turns on one aspect is circling when, together:
- at least two people are in it and a third of its turns push back (a disagreement, restated);
- nobody brings anything new: no passage of their own writing cited, no figure not heard before
  (in digits, or a share in words: "two thirds", "one in three"; a figure heard before in
  another form, "a third" after "33%", is not new), no evidence word (a study, a survey, a
  report...) new to the debate;
- nobody moves: no concession, no "you're right", no proposal, no acceptance, and nobody
  negating what they themselves said before (gateways/embeddings/meaning.py: polarity);
- every turn restates (``restated``): by **meaning**, where the turn and its speaker's earlier
  turns have their vectors (the in-debate memory's, made beside the run): one of those earlier
  turns is at the model's ``restated`` floor or above, with the same polarity and numbers, and
  the window's turns so judged average the ``circling`` floor or above; or by **words**, where
  no vector says so: most of its content words were said before in the debate (crudely stemmed),
  the window's share of new words small on average. A turn without a vector is never waited for:
  the word rule stands for it, and a window is also judged up to the newest turn that has its
  vector, so a circle in new words is noticed as soon as its turns are embedded. A model with no
  calibrated floors (meaning.floors_for) gets the word rule alone.

What the run does (``circling_move``): on to the next aspect while there is one, else the
discussion ends and the closings follow; the reason is shown in the chat and the exports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from debates.blackboard.conversation import SUPPORT, content_words, proposal_in, sentence_reaction, sentences
from gateways.embeddings.meaning import close_to_any, compatible, cosine, figures_in, floors_for, polarity_conflict

# The window: how many restating turns in a row make a circle. Three detection windows of three
# messages (crux staging) are what a disagreement needs to earn a crux room; the channel is not
# called circling before a room could have opened on it.
CIRCLING_TURNS = 9
NOVELTY_MAX = 0.5  # no turn of the window says more than this share of new words...
MEAN_NOVELTY_MAX = 0.34  # ...and on average a third at most (a turn restated by meaning: none)

_EVIDENCE = re.compile(
    r"\b(?:study|studies|survey|report|paper|dataset|statistics|census|audit|trial|experiment|according to|"
    r"published|source|evidence from|data from|figures from)\b",
    re.I,
)
_MOVED = re.compile(
    r"\b(?:i concede|i'll concede|i grant|i'll grant|granted|you're right|you are right|fair point|point taken|"
    r"fair enough|i was wrong|i stand corrected|i've changed my mind|i have changed my mind|changed my mind|"
    r"i take your point|i now (?:think|accept|agree|see)|on reflection|you've convinced me|you have convinced me|"
    r"i hadn't (?:weighed|considered|thought of)|i had not (?:weighed|considered|thought of))\b",
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
    vector: tuple[float, ...] | None = None  # its in-debate memory vector, once made


def _moved(text: str) -> bool:
    if _MOVED.search(text) or proposal_in(text):
        return True
    return any(sentence_reaction(sentence) == SUPPORT for sentence in sentences(text))


def _reverses_own(said: Said, earlier: list[Said]) -> bool:
    """Whether the turn negates what its speaker asserted before (or asserts what they negated)."""
    return any(e.speaker == said.speaker and polarity_conflict(e.text, said.text) for e in earlier)


def similarity_restated(said: Said, earlier: list[Said], *, model: str) -> float | None:
    """The best similarity of the turn to an earlier turn of its speaker that it agrees with in
    polarity and numbers, if it reaches the model's ``restated`` floor; None when it does not,
    when the turn or those turns have no vector, or the model has no floors."""
    floors = floors_for(model)
    if floors is None or said.vector is None:
        return None
    best = max(
        (
            cosine(said.vector, e.vector)
            for e in earlier
            if e.speaker == said.speaker and e.vector is not None and compatible(e.text, said.text)
        ),
        default=None,
    )
    return best if best is not None and best >= floors.restated else None


def _word_novelty(said: Said, words: set[str]) -> float:
    own = content_words(said.text)
    return len(own - words) / len(own) if own else 0.0


def restated(said: Said, earlier: list[Said], *, model: str = "") -> bool:
    """Whether ``said`` restates what its speaker said before (``earlier``: the debate so far): by
    meaning (similarity_restated) or, failing that, by words (at most NOVELTY_MAX of its words new
    to the debate); never when it negates its speaker's own point, changes a number or brings a
    figure not heard before."""
    if _reverses_own(said, earlier):
        return False
    heard = [value for e in earlier for value in figures_in(e.text)]
    if any(not close_to_any(value, heard) for value in figures_in(said.text)):
        return False  # a figure not heard before: something new
    if similarity_restated(said, earlier, model=model) is not None:
        return True
    own = [e for e in earlier if e.speaker == said.speaker]
    if not all(compatible(e.text, said.text) for e in own if e.text and _shares_most(e.text, said.text)):
        return False
    words: set[str] = set()
    for e in earlier:
        words |= content_words(e.text)
    return _word_novelty(said, words) <= NOVELTY_MAX


def _shares_most(a: str, b: str) -> bool:
    left, right = content_words(a), content_words(b)
    return bool(left and right) and len(left & right) * 2 >= len(left | right)


def circling_reason(history: list[Said], *, fresh: int, window: int = CIRCLING_TURNS, model: str = "") -> str | None:
    """Why a window of the last ``window`` turns of ``history`` is circling, or None when none is.

    history: the main channel so far, in turn order (openings included: what was said before is
    what a restatement repeats). fresh: how many of its last turns are on the current aspect since
    the run last moved on; a window must lie within them. model: the embedding model of the
    turns' vectors. The window ending with the last turn is judged, and, when the last turns have
    no vector yet, the one ending with the newest turn that has."""
    ends = [len(history)]
    with_vector = [i + 1 for i, said in enumerate(history) if said.vector is not None]
    if with_vector and with_vector[-1] < len(history):
        ends.append(with_vector[-1])
    for end in ends:
        if reason := _window_reason(history, end=end, fresh=fresh - (len(history) - end), window=window, model=model):
            return reason
    return None


def _window_reason(history: list[Said], *, end: int, fresh: int, window: int, model: str) -> str | None:
    if window < 2 or fresh < window or end < window:
        return None
    start = end - window
    words: set[str] = set()
    figures: list[float] = []
    evidence_words: set[str] = set()
    for said in history[:start]:
        words |= content_words(said.text)
        figures += figures_in(said.text)
        evidence_words |= {w.lower() for w in _EVIDENCE.findall(said.text)}
    novelty: list[float] = []
    similarities: list[float] = []
    pushing_back = 0
    for index in range(start, end):
        said, earlier = history[index], history[:index]
        cues = {w.lower() for w in _EVIDENCE.findall(said.text)}
        new_figures = [value for value in figures_in(said.text) if not close_to_any(value, figures)]
        if said.cited or new_figures or cues - evidence_words:
            return None  # something new came in
        if _moved(said.text) or _reverses_own(said, earlier):
            return None  # somebody moved
        similarity = similarity_restated(said, earlier, model=model)
        if similarity is not None:
            similarities.append(similarity)
            novelty.append(0.0)
        else:
            novelty.append(_word_novelty(said, words))
        pushing_back += bool(_PUSHBACK.search(said.text))
        words |= content_words(said.text)
        figures += figures_in(said.text)
        evidence_words |= cues
    speakers = list(dict.fromkeys(said.speaker for said in history[start:end]))
    if len(speakers) < 2 or pushing_back * 3 < window:
        return None
    if max(novelty) > NOVELTY_MAX or sum(novelty) / window > MEAN_NOVELTY_MAX:
        return None
    floors = floors_for(model)
    if similarities and floors is not None and sum(similarities) / len(similarities) < floors.circling:
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
