"""One typed payload per event kind: what every writer builds, what the fold, the fragments, the
exports and the test log builder read. Pure Python (pydantic), no Django.

``event_append(debate_id=..., payload=MessageStarted(...))`` stores ``payload.model_dump()`` under
``payload.event_kind``; ``parse_payload(kind, data)`` turns a stored dict back into its type. A field
added to a payload gets a default, so events already in the log still read.
"""

from __future__ import annotations

import enum
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from gateways.llm.pricing import cached_share


class EventKind(enum.StrEnum):
    DEBATE_STARTED = "debate_started"
    ASPECTS_SET = "aspects_set"
    PHASE_CHANGED = "phase_changed"
    TURN_REQUESTED = "turn_requested"  # a speaker's model call went out: it is thinking (no word yet)
    MESSAGE_STARTED = "message_started"
    MESSAGE_COMPLETED = "message_completed"
    MESSAGE_WITHDRAWN = "message_withdrawn"  # a turn shown while it streamed turned out to say nothing
    TURN_PASSED = "turn_passed"
    ROOM_OPENED = "room_opened"
    ROOM_CLOSED = "room_closed"
    CARD_POSTED = "card_posted"
    LEDGER_UPDATED = "ledger_updated"
    DEBATE_RESUMED = "debate_resumed"
    DEBATE_FINISHED = "debate_finished"
    DEBATE_FAILED = "debate_failed"
    MODEL_WAITING = "model_waiting"  # the model is unavailable; the run waits it out, then resumes
    GRAPH_UPDATED = "graph_updated"  # graph mode: the argument map after a crystallization
    MEMORY_RECALLED = "memory_recalled"  # before the first turn: what the owner's earlier debates left
    ROUND_SCORED = "round_scored"  # Analyst/Critic mode: the Critic's assessment and the consensus score
    DEBATE_PAUSED = "debate_paused"  # the run ended at a pause; nothing runs until the owner continues
    DEBATE_CONTINUED = "debate_continued"  # the owner pressed Continue: the debate is queued again
    CONVERSATION_NOTED = "conversation_noted"  # where we are: rolling summaries, proposals, decisions
    CIRCLING_NOTICED = "circling_noticed"  # the main channel kept restating one disagreement; the run acted
    INTERJECTION_POSTED = "interjection_posted"  # the owner spoke into the debate
    INTERJECTION_ANSWERED = "interjection_answered"  # a turn took the owner's interjection up
    QUESTION_DECIDED = "question_decided"  # planning: the yes/no question the verdict is about, or none fits
    DECISIONS_NOTED = "decisions_noted"  # Collaborate: the key decisions by id, then how each came out


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Totals(_Shape):
    """The debate's running spend, carried by events that follow model calls."""

    input_tokens: int = 0  # past the cache: billed in full
    output_tokens: int = 0
    cost: str = "0"
    cache_creation_tokens: int = 0
    cache_read_tokens: int = 0  # read from the prompt cache: billed at a tenth

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def cached_percent(self) -> int | None:
        """How much of the input the prompt cache served, in percent; None before any input."""
        share = cached_share(
            input_tokens=self.input_tokens,
            cache_creation_tokens=self.cache_creation_tokens,
            cache_read_tokens=self.cache_read_tokens,
        )
        return None if share is None else round(share * 100)


class Payload(_Shape):
    event_kind: ClassVar[EventKind]
    totals: Totals | None = None


class SeatedPersona(_Shape):
    id: int
    name: str
    seat: int
    tagline: str = ""


class NamedPersona(_Shape):
    id: int
    name: str


class Aspect(_Shape):
    label: str
    description: str = ""


class CardPosition(_Shape):
    persona_id: int | None = None
    name: str
    position: str
    reasoning: str = ""
    falsifier: str = ""


class Card(_Shape):
    id: int | str  # a crux room's card id, or "graph-<dispute>" for a graph mode crux
    room_id: int | None = None
    question: str
    positions: list[CardPosition]
    disagreement_type: str = ""
    diagnosis: str = ""
    resolved: bool = False
    resolution: str = ""
    suit: str


class DebateStarted(Payload):
    event_kind = EventKind.DEBATE_STARTED
    topic: str
    mode: str = "dialogue"
    max_turns: int = 0
    provider: str = ""
    personas: list[SeatedPersona]


class AspectsSet(Payload):
    event_kind = EventKind.ASPECTS_SET
    aspects: list[Aspect]


class QuestionDecided(Payload):
    """What the verdict is about: the yes/no question planning put the topic as (the topic itself
    when it is one), or none (``yes_no`` False: no yes/no question fits; agreement per crux)."""

    event_kind = EventKind.QUESTION_DECIDED
    question: str = ""
    yes_no: bool = True


class KeyDecision(_Shape):
    """One key decision of a Collaborate first answer: its id (D1, D2...), its role, what it
    decides (the reader's words), and, once the revisions were compared, how it came out
    (agreed, disputed, undecided, dropped; "" before)."""

    id: str
    role: str
    text: str
    outcome: str = ""


class DecisionsNoted(Payload):
    event_kind = EventKind.DECISIONS_NOTED
    decisions: list[KeyDecision]
    reviewed: bool = False  # the outcomes are the review's (False: listed, not yet compared)
    sides: dict[str, str] = {}  # reviewed: role -> its revision's answer to the question decided on


class PhaseChanged(Payload):
    event_kind = EventKind.PHASE_CHANGED
    phase: str
    aspect_index: int | None = None


class TurnRequested(Payload):
    """A turn's model call went out: its speaker is thinking, and nothing of it is on the page yet
    (its first words start a message, MessageStarted). The page says who is being waited for."""

    event_kind = EventKind.TURN_REQUESTED
    persona_id: int
    persona_name: str
    seat: int
    kind: str  # the turn kind (debates/turns.py)
    room_id: int | None = None


class MessageStarted(Payload):
    event_kind = EventKind.MESSAGE_STARTED
    message_id: int
    persona_id: int
    persona_name: str
    seat: int
    kind: str  # the turn kind (debates/turns.py)
    turn: int
    room_id: int | None = None
    aspect_index: int | None = None


class Citation(_Shape):
    """A passage of the speaker's own corpus the message leaned on."""

    tag: str
    chunk_id: int
    source: str
    excerpt: str


class MessageCompleted(Payload):
    event_kind = EventKind.MESSAGE_COMPLETED
    message_id: int
    text: str
    citations: list[Citation] = []
    cut_off: bool = False  # the token limit cut it short (its text ends at its last whole sentence)
    # The speaker said nothing (Message.Unanswered: "wrote_nothing", "call_failed"); its text is "".
    unanswered: Literal["", "wrote_nothing", "call_failed"] = ""


class MessageWithdrawn(Payload):
    event_kind = EventKind.MESSAGE_WITHDRAWN
    message_id: int


class TurnPassed(Payload):
    event_kind = EventKind.TURN_PASSED
    persona_id: int
    persona_name: str


class RoomOpened(Payload):
    event_kind = EventKind.ROOM_OPENED
    room_id: int
    persona_a: NamedPersona
    persona_b: NamedPersona
    question: str
    suit: str
    trigger_message_ids: list[int] = []


class RoomClosed(Payload):
    event_kind = EventKind.ROOM_CLOSED
    room_id: int
    exit_reason: str = ""
    failure: str = ""


class CardPosted(Payload):
    event_kind = EventKind.CARD_POSTED
    card: Card


class LedgerUpdated(Payload):
    """One persona's position ledger after a message of theirs was folded in."""

    event_kind = EventKind.LEDGER_UPDATED
    persona_id: int
    name: str = ""
    stance: str = ""
    side: str = ""  # YES | NO | NUANCED on the debate's question; "" not recorded (older logs too)
    concessions: list[Any] = []
    shifts: list[Any] = []
    agreements: list[dict] = []
    disagreements: list[dict] = []
    unanswered: list[Any] = []
    message_id: int | None = None  # the message whose fold this is (None: older logs)
    # The side that message itself gave, on its speaker's update ("" none, or another's message):
    # ``side`` may be a statement said after it. None: older logs.
    side_said: str | None = None


class DebateResumed(Payload):
    event_kind = EventKind.DEBATE_RESUMED
    from_seq: int = 0


class DebatePaused(Payload):
    """The run stopped at a turn boundary and let go of the debate (no worker holds it): after an
    Analyst/Critic round (``round``, unless auto-continue was chosen) or where the owner asked for
    a pause (``turn``: main-channel turns said so far). Continue picks it up from the log."""

    event_kind = EventKind.DEBATE_PAUSED
    reason: str = "requested"  # requested | round
    round: int = 0  # Analyst/Critic mode: rounds scored so far
    turn: int = 0


class DebateContinued(Payload):
    """The owner pressed Continue on a paused debate; it is queued for a worker again."""

    event_kind = EventKind.DEBATE_CONTINUED
    auto_continue: bool = False


class DebateFinished(Payload):
    event_kind = EventKind.DEBATE_FINISHED
    status: str
    results: dict = {}


class DebateFailed(Payload):
    event_kind = EventKind.DEBATE_FAILED
    reason: str


class ModelWaiting(Payload):
    event_kind = EventKind.MODEL_WAITING
    reason: str
    retry_in: float
    waited: float = 0.0


class GraphUpdated(Payload):
    """Graph mode: the argument map after one crystallization, with what it computed from it."""

    event_kind = EventKind.GRAPH_UPDATED
    round: int
    turns: list[int]
    final: bool = False
    moves: list[dict] = []
    applied: list[Any] = []
    rejected: list[Any] = []
    removed: list[Any] = []
    new_attacks: list[Any] = []
    graph: dict = {}
    labels: dict = {}
    counts: dict = {}
    camps: list[Any] = []
    common_ground: list[Any] = []
    disputes: list[Any] = []
    regime: str = ""
    converged: str = ""


class MemoryRecalled(Payload):
    """What long-term memory (memory/) recalled for this debate: counts only. Every viewer of the
    debate gets events, a share link's too; the texts are the owner's and stay on the owner's
    memory page."""

    event_kind = EventKind.MEMORY_RECALLED
    method: str  # vector | text | none
    facts: int = 0
    insights: int = 0
    persona_memories: int = 0


class LedgerChallenge(_Shape):
    """An assessment that would have changed an established fact: recorded, not applied."""

    round: int
    status: str  # contested | unverifiable | withdrawn (by the Analyst) | negated (its opposite accepted)
    text: str  # the wording the challenge gave (the opposite, the Analyst's words), or the fact's
    note: str = ""


class LedgerPoint(_Shape):
    """One point of the Analyst/Critic point ledger, as it stands after a round. Its id in prompts
    is its place: P1 is the first point (orchestration/modes/analyst_critic/consensus.py)."""

    text: str
    # Held: agreed | contested | unverifiable. Closed by the Analyst: refined (a narrower point
    # replaced it) | withdrawn | negated (its opposite replaced it). Closed in a ledger stored before
    # points were judged by reference: superseded (its negation was agreed later).
    status: str
    note: str = ""  # the Critic's reasoning (agreed) or counter-argument (contested)
    first_round: int
    last_round: int
    was_contested: bool = False
    from_memory: bool = False  # an established fact recalled from the owner's earlier debates
    confidence: float | None = None  # the Critic's, 0-1
    supersedes: int | None = None  # index in the ledger of the point this one refined or negated
    superseded_by: int | None = None
    challenges: list[LedgerChallenge] = []  # only on established facts
    quote: str = ""  # the Analyst's words that closed it (withdrawn, refined, negated)


class RoundScored(Payload):
    """Analyst/Critic mode: one round's agreement assessment folded into the point ledger, and the
    consensus score it gives. ``assessed`` is False when the round got no assessment (the ledger and
    score are then last round's), ``skipped`` saying why: "critic_silent" (the Critic said nothing
    usable: nothing was asked of an empty evaluation) or "unreadable" (the assessment was unusable
    even after a repair; empty in events stored before). ``refused``: what the code refused of the
    assessment (unknown ids, closings not in the Analyst's words), one line each; ``whole_evaluation``:
    the Critic wrote no Agreement Assessment section, so its whole evaluation was read. Round 0 is
    the ledger before the first round, seeded with established facts from memory (only written when
    there are some)."""

    event_kind = EventKind.ROUND_SCORED
    round: int
    score: float
    consensus: bool = False
    assessed: bool = True
    level: str = ""  # the Critic's overall agreement: strong | moderate | weak
    agreed: int = 0
    contested: int = 0
    unverifiable: int = 0
    points: list[LedgerPoint] = []
    skipped: str = ""
    refused: list[str] = []
    whole_evaluation: bool = False


class ConversationNoted(Payload):
    """Where the discussion stands (seeds/conversation-memory.md): the latest rolling summaries,
    every proposal with its status and who reacted how, and the decisions everyone accepted. The
    whole state each time, so the panel redraws from the last one."""

    event_kind = EventKind.CONVERSATION_NOTED
    summaries: list[dict] = []  # [{"from_turn", "to_turn", "text"}], the latest few
    proposals: list[dict] = []  # [{"id", "by", "proposal", "turn", "status", "reactions": {name: reaction}}]
    decisions: list[str] = []


class CirclingNoticed(Payload):
    """The main channel restated the same disagreement with nothing new for ``turns`` turns; the
    run moved on to the next aspect or ended the discussion (``action``), for ``reason``."""

    event_kind = EventKind.CIRCLING_NOTICED
    aspect_index: int
    action: Literal["next_aspect", "ended"]
    reason: str
    from_turn: int
    to_turn: int
    slots_skipped: int = 0  # dialogue turns of the budget given up by the move


class InterjectionPosted(Payload):
    """The owner's question, evidence or challenge, posted into the running debate (Interjection);
    ``to_name`` when it is addressed to one persona. The texts are the owner's: every viewer of the
    debate sees them, as the personas' own."""

    event_kind = EventKind.INTERJECTION_POSTED
    interjection_id: int
    kind: Literal["question", "evidence", "challenge"] = "question"
    text: str
    link: str = ""
    document_title: str = ""
    to_persona_id: int | None = None
    to_name: str = ""


class InterjectionAnswered(Payload):
    """Which turn took the interjection up: the message that answers it (or, in a round-based mode,
    the round that read it: the message is then that round's first)."""

    event_kind = EventKind.INTERJECTION_ANSWERED
    interjection_id: int
    message_id: int | None = None
    persona_id: int | None = None
    persona_name: str = ""


PAYLOADS: dict[str, type[Payload]] = {cls.event_kind.value: cls for cls in Payload.__subclasses__()}
assert set(PAYLOADS) == {kind.value for kind in EventKind}, "every event kind needs one payload type"


def parse_payload(kind: str, data: dict | Payload) -> Payload | None:
    """The typed payload of a stored event; None for a kind this code does not know."""
    if isinstance(data, Payload):
        return data
    cls = PAYLOADS.get(str(kind))
    return None if cls is None else cls.model_validate(data)
