"""What the truth corpus's scripted models share while one scenario plays (corpus_script.py): what
was said, in the order it was said, and which utterance of the scenario each line the app shows
stands for. Pure Python over the corpus's own types (evaluation/corpus/loader.py).

The speakers write here what they said (``said``); the reader finds here the utterance a line of
a prompt stands for (``match``): a transcript line ``[turn N] Name: text`` is matched to the
utterance of that speaker whose sentences it holds (the app only cuts whole sentences or prompt
furniture, so the shown text's sentences are among the utterance's ``text`` or ``again``); the
most shared sentences wins, ties go to the one already matched to that line, then to the earliest
not yet matched (evaluation/corpus/README.md, "How a runner plays a scenario").
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

from evaluation.corpus.loader import Scenario, Utterance

# The seat titles the two-role modes' transcript lines go by, and who says the synthesis.
ROLE_TITLES = {"Analyst": "analyst", "Critic": "critic", "Architect": "architect", "Reviewer": "reviewer"}
SYNTHESIS = "synthesis"

_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|\n+")


def wording_key(text: str) -> str:
    """A wording as the reader's bookkeeping keys it: words, numbers and % only, lower case."""
    return " ".join(re.sub(r"[^\w%$]+", " ", (text or "").lower()).split())


def sentence_keys(text: str) -> set[str]:
    """The sentences of ``text`` as they are compared: words only, lower case."""
    keys = set()
    for sentence in _SENTENCE_END.split(text or ""):
        key = re.sub(r"\W+", " ", sentence).strip().lower()
        if key:
            keys.add(key)
    return keys


@dataclass(frozen=True)
class Spoken:
    """One utterance the app was given: where (``channel``: "main", "room <id>", "round",
    "collaborate"), its app turn (None when the call named none) and its place in play order."""

    utterance: Utterance
    channel: str
    turn: int | None
    order: int

    @property
    def key(self) -> str:
        return self.utterance.where


@dataclass
class Stage:
    scenario: Scenario
    personas: dict[str, str] = field(default_factory=dict)  # persona id -> participant name
    spoken: list[Spoken] = field(default_factory=list)
    matched: dict[tuple, str] = field(default_factory=dict)  # (channel, turn, name) -> utterance key
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.utterances = list(self.scenario.utterances())
        self.by_key = {u.where: u for u in self.utterances}
        self.order = {u.where: index for index, u in enumerate(self.utterances)}
        self._keys = {u.where: sentence_keys(u.said.text) | sentence_keys(u.said.again or "") for u in self.utterances}

    # ── who is who ────────────────────────────────────────────────────────────────────────────

    def participant(self, name: str) -> str:
        """The participant a line's name stands for: a participant's name, or a seat's title."""
        if name in self.scenario.names():
            return name
        role = ROLE_TITLES.get(name.strip())
        if role and any(p.role == role for p in self.scenario.participants):
            return self.scenario.seat(role).name
        return SYNTHESIS if name.strip().lower() == SYNTHESIS else name

    # ── what was said ─────────────────────────────────────────────────────────────────────────

    def say(self, utterance: Utterance, *, channel: str, turn: int | None) -> Spoken:
        with self._lock:
            spoken = Spoken(utterance, channel, turn, len(self.spoken))
            self.spoken.append(spoken)
            if turn is not None:
                self.matched[(channel, turn, utterance.speaker)] = utterance.where
            return spoken

    def said_keys(self) -> set[str]:
        return {s.key for s in self.spoken}

    def spoken_by(self, key: str) -> Spoken | None:
        return next((s for s in reversed(self.spoken) if s.key == key), None)

    # ── what a line stands for ────────────────────────────────────────────────────────────────

    def match(self, name: str, text: str, *, channel: str = "", turn: int | None = None) -> Utterance | None:
        """The utterance a shown line of ``name``'s stands for, or None when none shares a sentence."""
        speaker = self.participant(name)
        shown = sentence_keys(text)
        if not shown:
            return None
        candidates = [u for u in self.utterances if u.speaker == speaker] or self.utterances
        said = self.said_keys()
        best, best_rank = None, None
        already = self.matched.get((channel, turn, speaker))
        taken = set(self.matched.values())
        for utterance in candidates:
            shared = len(shown & self._keys[utterance.where])
            if not shared:
                continue
            rank = (
                shared,
                utterance.where == already,
                utterance.where in said,
                utterance.where not in taken,
                -self.order[utterance.where],
            )
            if best_rank is None or rank > best_rank:
                best, best_rank = utterance, rank
        if best is not None and turn is not None:
            with self._lock:
                self.matched.setdefault((channel, turn, speaker), best.where)
        return best

    def before(self, utterance: Utterance) -> list[Utterance]:
        """What was said before ``utterance`` (play order as the app played it), oldest first; the
        scenario's order for what was never said."""
        spoken = next((s for s in self.spoken if s.key == utterance.where), None)
        if spoken is None:
            return [u for u in self.utterances if self.order[u.where] < self.order[utterance.where]]
        return [s.utterance for s in self.spoken if s.order < spoken.order]
