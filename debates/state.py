"""A debate as the page shows it, rebuilt by folding its event log.

The live page's snapshot, the replay (at any step) and the exports all come from ``fold``, and
all render through the same partials, so they cannot drift apart. Pure Python, no Django.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from pydantic import ValidationError

from debates import payloads as p
from debates.modes import mode_panels, mode_spec
from debates.panels import Panels
from debates.payloads import EventKind, Totals

logger = logging.getLogger(__name__)

__all__ = ["EventKind", "SUITS", "DebateView", "apply", "fold"]


SUITS = ["♠", "♥", "♦", "♣"]


@dataclass
class PersonaView:
    id: int
    name: str
    seat: int
    tagline: str = ""


@dataclass
class MessageView:
    id: int
    persona_id: int
    persona_name: str
    seat: int
    kind: str
    turn: int
    text: str = ""
    streaming: bool = True
    room_id: int | None = None
    aspect_index: int | None = None
    citations: list[dict] = field(default_factory=list)  # [{"tag", "chunk_id", "source", "excerpt"}]
    cut_off: bool = False  # the token limit cut it short
    unanswered: str = ""  # the speaker said nothing: "wrote_nothing" or "call_failed" (Message.Unanswered)
    seq: int = 0  # the event that began it


# The Collaborate mode's roles, by seat, as its spec row names them, and the kinds of their outputs
# (orchestration/modes/collaborate/).
COLLABORATION_ROLES = tuple(seat.name for seat in mode_spec("collaborate").seats)
COLLABORATION_KINDS = ("draft", "revision")


def unanswered_notice(message: MessageView) -> str:
    """What the page and the exports say in place of a message whose speaker said nothing: a note
    about the role, in the page's voice, never words put in its mouth ("" for a message with words)."""
    if not message.unanswered:
        return ""
    seat = message.seat
    in_role = message.kind in COLLABORATION_KINDS and 0 <= seat < len(COLLABORATION_ROLES)
    who = f"The {COLLABORATION_ROLES[seat]}" if in_role else message.persona_name
    if message.unanswered == "call_failed":
        return f"{who} could not answer: its model call failed."
    return f"{who} wrote nothing this round."


@dataclass
class CardView:
    id: int
    room_id: int
    question: str
    positions: list[dict]  # [{"persona_id", "name", "position", "reasoning", "falsifier"}]
    disagreement_type: str
    diagnosis: str
    resolved: bool
    resolution: str
    suit: str


@dataclass
class RoomView:
    id: int
    persona_a: dict
    persona_b: dict
    question: str
    suit: str
    live: bool = True
    exit_reason: str = ""
    messages: list[MessageView] = field(default_factory=list)
    card: CardView | None = None


@dataclass
class InterjectionView:
    """The owner's interjection, and the turn that answered it once one has."""

    id: int
    kind: str  # question | evidence | challenge
    text: str
    seq: int
    link: str = ""
    document_title: str = ""
    to_name: str = ""
    answered_by: str = ""  # the persona whose turn took it up
    answer_message_id: int | None = None


@dataclass
class ChatItem:
    """One row of the main channel: a message, a pass, a crux card posted back, the owner's
    interjection, or the run's note that the channel was circling and what it did about it."""

    kind: str  # "message" | "pass" | "card" | "interjection" | "circling"
    message: MessageView | None = None
    card: CardView | None = None
    interjection: InterjectionView | None = None
    persona_name: str = ""
    seq: int = 0
    note: dict = field(default_factory=dict)  # circling: the circling_noticed payload


@dataclass
class DebateView:
    debate_id: str
    topic: str = ""
    mode: str = "dialogue"
    status: str = "pending"
    phase: str = ""
    aspects: list[dict] = field(default_factory=list)
    # The yes/no question the verdict is about ("" until planned, or when none fits: no_yes_no).
    decided_on: str = ""
    no_yes_no: bool = False
    # Collaborate: the key decisions by id, as last noted ({"id", "role", "text", "outcome"}).
    decisions: list[dict] = field(default_factory=list)
    current_aspect: int | None = None
    personas: list[PersonaView] = field(default_factory=list)
    max_turns: int = 0
    provider: str = ""
    chat: list[ChatItem] = field(default_factory=list)
    rooms: list[RoomView] = field(default_factory=list)
    cards: list[CardView] = field(default_factory=list)
    totals: Totals = field(default_factory=Totals)
    # persona id -> {"name", "stance", "concessions", "shifts", "agreements", "disagreements", "unanswered"}
    positions: dict[int, dict] = field(default_factory=dict)
    results: dict = field(default_factory=dict)
    # Graph mode: the latest graph_updated payload (the map, its labels, camps, recent attacks).
    graph: dict = field(default_factory=dict)
    failure_reason: str = ""
    # The model is unavailable and the run is waiting it out: {"reason", "retry_in", "waited"}.
    waiting_for_model: dict = field(default_factory=dict)
    # What long-term memory recalled before the first turn: {"method", "facts", "insights", "persona_memories"}.
    memory: dict = field(default_factory=dict)
    # Analyst/Critic mode: the latest round_scored payload (round, score, consensus, counts, points).
    consensus: dict = field(default_factory=dict)
    # Paused: the latest debate_paused payload (reason, round, turn); empty while it runs.
    paused: dict = field(default_factory=dict)
    # Where we are: the latest conversation_noted payload (summaries, proposals, decisions).
    conversation: dict = field(default_factory=dict)
    # Every circling_noticed payload, in order: why the run moved on or ended the discussion early.
    circling: list[dict] = field(default_factory=list)
    interjections: list[InterjectionView] = field(default_factory=list)  # the owner's, in order
    # The latest turn asked for in each channel ("main", or a crux room's id): the turn_requested
    # payload and its seq. Its speaker is thinking until a message or a pass of that channel follows.
    asked: dict = field(default_factory=dict)
    last_seq: int = 0

    @property
    def panels(self) -> Panels:
        """What this debate's page draws, by its mode (debates/panels.py)."""
        return mode_panels(self.mode)

    @property
    def message_count(self) -> int:
        """Messages of the main channel (openings, turns, closings, a mode's outputs)."""
        return sum(1 for item in self.chat if item.kind == "message")

    @property
    def finished(self) -> bool:
        return self.status in {"completed", "failed", "stopped"}

    def interjection(self, interjection_id: int) -> InterjectionView | None:
        return next((item for item in self.interjections if item.id == interjection_id), None)

    def room(self, room_id: int) -> RoomView | None:
        return next((room for room in self.rooms if room.id == room_id), None)

    def message(self, message_id: int) -> MessageView | None:
        for item in self.chat:
            if item.message and item.message.id == message_id:
                return item.message
        for room in self.rooms:
            for message in room.messages:
                if message.id == message_id:
                    return message
        return None


def card_from_payload(card: p.Card | dict) -> CardView:
    card = card if isinstance(card, p.Card) else p.Card.model_validate(card)
    return CardView(
        id=card.id,
        room_id=card.room_id,
        question=card.question,
        positions=[position.model_dump() for position in card.positions],
        disagreement_type=card.disagreement_type,
        diagnosis=card.diagnosis,
        resolved=card.resolved,
        resolution=card.resolution,
        suit=card.suit,
    )


def apply(view: DebateView, seq: int, kind: str, payload: dict | p.Payload) -> DebateView:
    """Apply one event (its stored dict or its typed payload) to the view; mutates and returns it."""
    view.last_seq = seq
    try:
        event = p.parse_payload(kind, payload)
    except ValidationError:
        logger.exception("Event %s of debate %s (%s) does not match its schema; skipped", seq, view.debate_id, kind)
        return view
    if event is None:
        return view  # a kind this code does not know (written by a newer version)
    # Anything the run does again means the wait is over; starting again and asking for the turn
    # again do not (the model may still be unavailable: the page says it is retried until
    # something comes of it).
    if not isinstance(event, p.ModelWaiting | p.LedgerUpdated | p.TurnRequested | p.DebateResumed):
        view.waiting_for_model = {}
    if event.totals is not None:
        view.totals = event.totals
    match event:
        case p.DebateStarted():
            view.topic = event.topic
            view.mode = event.mode
            view.max_turns = event.max_turns
            view.provider = event.provider
            view.personas = [PersonaView(**persona.model_dump()) for persona in event.personas]
            view.status = "running"
        case p.RoundScored():
            view.consensus = event.model_dump(exclude={"totals"})
        case p.AspectsSet():
            view.aspects = [aspect.model_dump() for aspect in event.aspects]
        case p.QuestionDecided():
            view.decided_on, view.no_yes_no = event.question, not event.yes_no
        case p.DecisionsNoted():
            view.decisions = [decision.model_dump() for decision in event.decisions]
        case p.PhaseChanged():
            view.phase = event.phase
            view.current_aspect = event.aspect_index
        case p.TurnRequested():
            channel = "main" if event.room_id is None else event.room_id
            view.asked[channel] = {**event.model_dump(exclude={"totals"}), "seq": seq}
        case p.MessageStarted():
            message = MessageView(
                id=event.message_id,
                persona_id=event.persona_id,
                persona_name=event.persona_name,
                seat=event.seat,
                kind=event.kind,
                turn=event.turn,
                room_id=event.room_id,
                aspect_index=event.aspect_index,
                seq=seq,
            )
            if message.room_id is None:
                view.chat.append(ChatItem(kind="message", message=message, seq=seq))
            elif room := view.room(message.room_id):
                room.messages.append(message)
        case p.MessageCompleted():
            if message := view.message(event.message_id):
                message.text = event.text
                message.streaming = False
                message.citations = [citation.model_dump() for citation in event.citations]
                message.cut_off = event.cut_off
                message.unanswered = event.unanswered
        case p.MessageWithdrawn():
            view.chat = [item for item in view.chat if not (item.message and item.message.id == event.message_id)]
            for room in view.rooms:
                room.messages = [message for message in room.messages if message.id != event.message_id]
        case p.TurnPassed():
            view.chat.append(ChatItem(kind="pass", persona_name=event.persona_name, seq=seq))
        case p.RoomOpened():
            view.rooms.append(
                RoomView(
                    id=event.room_id,
                    persona_a=event.persona_a.model_dump(),
                    persona_b=event.persona_b.model_dump(),
                    question=event.question,
                    suit=event.suit,
                )
            )
        case p.RoomClosed():
            if room := view.room(event.room_id):
                room.live = False
                room.exit_reason = event.exit_reason
        case p.CardPosted():
            card = card_from_payload(event.card)
            view.cards.append(card)
            view.chat.append(ChatItem(kind="card", card=card, seq=seq))
            if room := view.room(card.room_id):
                room.card = card
        case p.LedgerUpdated():
            view.positions[event.persona_id] = event.model_dump(exclude={"totals"})
        case p.DebateResumed():
            view.status = "running"
            view.failure_reason = ""
            view.paused = {}
            if view.waiting_for_model:
                view.waiting_for_model = {**view.waiting_for_model, "retrying": True}
        case p.DebatePaused():
            view.status = "paused"
            view.paused = event.model_dump(exclude={"totals"})
        case p.DebateContinued():
            view.status = "pending"
            view.paused = {}
        case p.DebateFinished():
            view.status = event.status
            view.results = event.results
            view.phase = "done"
        case p.DebateFailed():
            view.status = "failed"
            view.failure_reason = event.reason
        case p.GraphUpdated():
            view.graph = event.model_dump(exclude={"totals"})
        case p.ModelWaiting():
            view.waiting_for_model = event.model_dump(exclude={"totals"})
        case p.MemoryRecalled():
            view.memory = event.model_dump(exclude={"totals"})
        case p.ConversationNoted():
            view.conversation = event.model_dump(exclude={"totals"})
        case p.CirclingNoticed():
            note = event.model_dump(exclude={"totals"})
            view.circling.append(note)
            view.chat.append(ChatItem(kind="circling", note=note, seq=seq))
        case p.InterjectionPosted():
            interjection = InterjectionView(
                id=event.interjection_id,
                kind=event.kind,
                text=event.text,
                seq=seq,
                link=event.link,
                document_title=event.document_title,
                to_name=event.to_name,
            )
            view.interjections.append(interjection)
            view.chat.append(ChatItem(kind="interjection", interjection=interjection, seq=seq))
        case p.InterjectionAnswered():
            if interjection := view.interjection(event.interjection_id):
                interjection.answered_by = event.persona_name
                interjection.answer_message_id = event.message_id
    return view


def fold(debate_id: str, events: Iterable[tuple[int, str, dict]]) -> DebateView:
    view = DebateView(debate_id=str(debate_id))
    for seq, kind, payload in events:
        apply(view, seq, kind, payload)
    return view
