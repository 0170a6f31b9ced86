"""Staged commitment for crux rooms (seeds/past-engines-and-crux-rooms.md §6, area 6). Pure.

Stage 1: every detection window reports disagreements; each is matched to a tracked candidate
(by the id the detector echoes back, else by pair and wording) and its run of consecutive
windows grows, or restarts. Stage 2: a room opens only for a candidate seen in enough
consecutive windows, with enough confidence, with no room yet, after the pair's cooldown, and
when no room (for any pair) already works on the same dispute (``covered``).

Whether two reported disputes are one (``same_dispute``) is judged by their meaning where both
have their vectors (a tracked candidate's is made beside the debate, in-debate memory's
embedding lane; a dispute a window has just reported has none yet, so the words judge it):
at the embedding model's ``same_dispute`` floor or above (gateways/embeddings/meaning.py, which
says how it was calibrated), unless the two share half their words or more, when what differs
is what they are about and the words decide ("Is nuclear power safe?" / "... cheap?"). The
numbers must agree either way ("cut by a third" is not "cut by two thirds"). Polarity is not
checked here: a yes/no question and its negation are one dispute with the sides swapped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gateways.embeddings.meaning import WORDS_DECIDE, cosine, floors_for, numbers_agree, shared_share
from gateways.words import STOP_WORDS

SIMILAR_WORDING = 0.6  # Jaccard overlap of content words from which two disputes are one: "nuclear power safe" vs "nuclear power cheap" (0.5) stays two


@dataclass
class TrackedCandidate:
    id: int | None
    pair: tuple[int, int]
    dispute: str
    consecutive_windows: int
    seen_count: int
    last_window: int
    confidence: float
    has_room: bool = False
    source_message_ids: list[int] = field(default_factory=list)
    vector: tuple[float, ...] | None = None  # its dispute's, once in-debate memory has embedded it


@dataclass(frozen=True)
class Finding:
    pair: tuple[int, int]
    dispute: str
    confidence: float
    known_id: int | None = None


@dataclass(frozen=True)
class Thresholds:
    min_consecutive_windows: int = 3
    min_confidence: float = 0.8
    pair_cooldown_seconds: float = 300


# Words a detector uses to report a dispute, not what the dispute is about.
DISPUTE_TALK = frozenset({"dispute", "disputed", "disputes", "disagree", "disagreement", "question"})


def _words(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {word for word in words if word not in STOP_WORDS and word not in DISPUTE_TALK}


def similar(a: str, b: str) -> bool:
    left, right = _words(a), _words(b)
    if not left or not right:
        return False
    return len(left & right) / len(left | right) >= SIMILAR_WORDING


def pair_of(persona_a: int, persona_b: int) -> tuple[int, int]:
    return (min(persona_a, persona_b), max(persona_a, persona_b))


def match(candidates: list[TrackedCandidate], finding: Finding) -> TrackedCandidate | None:
    by_id = {c.id: c for c in candidates if c.id is not None}
    known = by_id.get(finding.known_id)
    if known is not None and known.pair == finding.pair:
        return known
    return next((c for c in candidates if c.pair == finding.pair and similar(c.dispute, finding.dispute)), None)


def observe(
    candidates: list[TrackedCandidate], *, window: int, findings: list[Finding], message_ids: list[int]
) -> list[TrackedCandidate]:
    """Fold one window's findings into the tracked candidates; returns the new ones to store.

    Mutates matched candidates in place. A candidate not seen in this window loses its run.
    """
    seen_now: set[int] = set()
    created: list[TrackedCandidate] = []
    for finding in findings:
        if finding.pair[0] == finding.pair[1]:
            continue
        candidate = match(candidates + created, finding)
        if candidate is None:
            candidate = TrackedCandidate(
                id=None,
                pair=finding.pair,
                dispute=finding.dispute,
                consecutive_windows=1,
                seen_count=1,
                last_window=window,
                confidence=finding.confidence,
                source_message_ids=list(message_ids),
            )
            created.append(candidate)
        elif candidate.last_window == window:
            candidate.confidence = max(candidate.confidence, finding.confidence)  # reported twice in one window
        else:
            candidate.consecutive_windows = (
                candidate.consecutive_windows + 1 if candidate.last_window == window - 1 else 1
            )
            candidate.seen_count += 1
            candidate.last_window = window
            candidate.confidence = finding.confidence
            candidate.source_message_ids = sorted(set(candidate.source_message_ids) | set(message_ids))
        seen_now.add(id(candidate))
    for candidate in candidates:
        if id(candidate) not in seen_now and candidate.last_window < window:
            candidate.consecutive_windows = 0
    return created


def same_dispute(a: str, b: str, *, vectors: tuple, model: str) -> bool:
    """Whether two reported disputes are one (see the module's docstring). ``vectors``: theirs,
    None where not made yet; ``model``: the embedding model that made them."""
    if not numbers_agree(a, b):
        return False
    floors = floors_for(model)
    left, right = vectors
    if floors is None or left is None or right is None or shared_share(a, b) >= WORDS_DECIDE:
        return similar(a, b)
    return similar(a, b) or cosine(left, right) >= floors.same_dispute


def covered(dispute: str, vector, rooms: list[tuple[str, object]], *, model: str) -> bool:
    """A room (for any pair) already works on this dispute: a second one would deal a duplicate
    card. ``rooms``: each room's question and its vector (None when not made)."""
    return any(same_dispute(dispute, question, vectors=(vector, made), model=model) for question, made in rooms)


# How many windows past ready a candidate without its vector waits for it, when rooms are open.
VECTOR_WAIT_WINDOWS = 1


def waits_for_its_vector(
    candidate: TrackedCandidate, rooms: list[tuple[str, object]], *, thresholds: Thresholds, model: str
) -> bool:
    """Whether a candidate ready to open holds back for its dispute's vector: the debate has rooms
    already (it may be one of theirs in other words: ``covered``), the vector is not made yet
    (in-debate memory embeds beside the run), and it has waited fewer than VECTOR_WAIT_WINDOWS
    windows past ready. Then the words decide. A model with no floors never waits."""
    if not rooms or candidate.vector is not None or floors_for(model) is None:
        return False
    return candidate.consecutive_windows < thresholds.min_consecutive_windows + VECTOR_WAIT_WINDOWS


def ready_to_open(
    candidate: TrackedCandidate, *, now: float, pair_last_room_at: float | None, thresholds: Thresholds
) -> bool:
    return (
        not candidate.has_room
        and candidate.consecutive_windows >= thresholds.min_consecutive_windows
        and candidate.confidence >= thresholds.min_confidence
        and (pair_last_room_at is None or now - pair_last_room_at >= thresholds.pair_cooldown_seconds)
    )
