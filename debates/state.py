"""A debate as the page shows it, rebuilt by folding its event log.

The live page's snapshot, the replay (at any step) and the exports all come from ``fold``, and
all render through the same partials, so they cannot drift apart. Pure Python, no Django.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field


class EventKind(enum.StrEnum):
    DEBATE_STARTED = "debate_started"
    ASPECTS_SET = "aspects_set"
    PHASE_CHANGED = "phase_changed"
    MESSAGE_STARTED = "message_started"
    MESSAGE_COMPLETED = "message_completed"
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
class Totals:
    input_tokens: int = 0
    output_tokens: int = 0
    cost: str = "0"

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass
class ChatItem:
    """One row of the main channel: a message, a pass, or a crux card posted back."""

    kind: str  # "message" | "pass" | "card"
    message: MessageView | None = None
    card: CardView | None = None
    persona_name: str = ""
    seq: int = 0


@dataclass
class DebateView:
    debate_id: str
    topic: str = ""
    mode: str = "dialogue"
    status: str = "pending"
    phase: str = ""
    aspects: list[dict] = field(default_factory=list)
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
    last_seq: int = 0

    @property
    def turn_count(self) -> int:
        return sum(1 for item in self.chat if item.kind == "message")

    @property
    def finished(self) -> bool:
        return self.status in {"completed", "failed", "stopped"}

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


def card_from_payload(data: dict) -> CardView:
    return CardView(
        id=data["id"],
        room_id=data["room_id"],
        question=data["question"],
        positions=list(data["positions"]),
        disagreement_type=data["disagreement_type"],
        diagnosis=data["diagnosis"],
        resolved=data["resolved"],
        resolution=data.get("resolution", ""),
        suit=data["suit"],
    )


def apply(view: DebateView, seq: int, kind: str, payload: dict) -> DebateView:
    """Apply one event to the view (mutates and returns it)."""
    view.last_seq = seq
    if kind != EventKind.MODEL_WAITING and kind != EventKind.LEDGER_UPDATED:
        view.waiting_for_model = {}  # anything the run does again means the wait is over
    if "totals" in payload:
        view.totals = Totals(**payload["totals"])
    match kind:
        case EventKind.DEBATE_STARTED:
            view.topic = payload["topic"]
            view.mode = payload.get("mode", "dialogue")
            view.max_turns = payload.get("max_turns", 0)
            view.provider = payload.get("provider", "")
            view.personas = [PersonaView(**persona) for persona in payload["personas"]]
            view.status = "running"
        case EventKind.ASPECTS_SET:
            view.aspects = list(payload["aspects"])
        case EventKind.PHASE_CHANGED:
            view.phase = payload["phase"]
            view.current_aspect = payload.get("aspect_index")
        case EventKind.MESSAGE_STARTED:
            message = MessageView(
                id=payload["message_id"],
                persona_id=payload["persona_id"],
                persona_name=payload["persona_name"],
                seat=payload["seat"],
                kind=payload["kind"],
                turn=payload["turn"],
                room_id=payload.get("room_id"),
                aspect_index=payload.get("aspect_index"),
            )
            if message.room_id is None:
                view.chat.append(ChatItem(kind="message", message=message, seq=seq))
            elif room := view.room(message.room_id):
                room.messages.append(message)
        case EventKind.MESSAGE_COMPLETED:
            if message := view.message(payload["message_id"]):
                message.text = payload["text"]
                message.streaming = False
        case EventKind.TURN_PASSED:
            view.chat.append(ChatItem(kind="pass", persona_name=payload["persona_name"], seq=seq))
        case EventKind.ROOM_OPENED:
            view.rooms.append(
                RoomView(
                    id=payload["room_id"],
                    persona_a=payload["persona_a"],
                    persona_b=payload["persona_b"],
                    question=payload["question"],
                    suit=payload["suit"],
                )
            )
        case EventKind.ROOM_CLOSED:
            if room := view.room(payload["room_id"]):
                room.live = False
                room.exit_reason = payload.get("exit_reason", "")
        case EventKind.CARD_POSTED:
            card = card_from_payload(payload["card"])
            view.cards.append(card)
            view.chat.append(ChatItem(kind="card", card=card, seq=seq))
            if room := view.room(card.room_id):
                room.card = card
        case EventKind.LEDGER_UPDATED:
            view.positions[payload["persona_id"]] = payload
        case EventKind.DEBATE_RESUMED:
            view.status = "running"
            view.failure_reason = ""
        case EventKind.DEBATE_FINISHED:
            view.status = payload["status"]
            view.results = payload.get("results", {})
            view.phase = "done"
        case EventKind.DEBATE_FAILED:
            view.status = "failed"
            view.failure_reason = payload["reason"]
        case EventKind.GRAPH_UPDATED:
            view.graph = payload
        case EventKind.MODEL_WAITING:
            view.waiting_for_model = dict(payload)
    return view


def fold(debate_id: str, events: Iterable[tuple[int, str, dict]]) -> DebateView:
    view = DebateView(debate_id=str(debate_id))
    for seq, kind, payload in events:
        apply(view, seq, kind, payload)
    return view
