"""Builds a debate's event log the way the orchestrator would (rows plus events, through
debates.services.events.event_append), without running the orchestrator or any model."""

from __future__ import annotations

from crux.models import CruxCard, CruxRoom
from debates.models import Debate, Message
from debates.payloads import PAYLOADS
from debates.services.events import event_append
from debates.state import SUITS, EventKind

HOSTILE = '<script>alert(1)</script><img src=x onerror="alert(2)">'


class DebateLog:
    def __init__(self, debate: Debate) -> None:
        self.debate = debate
        self.seats = {p.persona_id: p.seat for p in debate.participants.all()}
        self.personas = [p.persona for p in debate.participants.select_related("persona").order_by("seat")]
        self.turns: dict[int | None, int] = {}
        self.totals = {"input_tokens": 0, "output_tokens": 0, "cost": "0"}

    def _append(self, kind, payload: dict):
        # Through the payload type of the kind, as every writer in the app goes (debates/payloads.py).
        return event_append(debate_id=self.debate.id, payload=PAYLOADS[kind].model_validate(payload))

    def _spend(self, tokens: int = 100) -> dict:
        self.totals = {
            "input_tokens": self.totals["input_tokens"] + tokens,
            "output_tokens": self.totals["output_tokens"] + tokens // 2,
            "cost": f"{(self.totals['input_tokens'] + tokens) * 0.00001:.4f}",
        }
        return dict(self.totals)

    def start(self, *, provider: str = "anthropic") -> DebateLog:
        self._append(
            EventKind.DEBATE_STARTED,
            {
                "topic": self.debate.topic,
                "mode": self.debate.mode,
                "max_turns": self.debate.max_turns,
                "provider": provider,
                "personas": [
                    {"id": p.id, "name": p.name, "seat": self.seats[p.id], "tagline": p.tagline} for p in self.personas
                ],
            },
        )
        Debate.objects.filter(pk=self.debate.pk).update(status=Debate.Status.RUNNING)
        return self

    def phase(self, phase: str, aspect_index: int | None = None) -> DebateLog:
        self._append(EventKind.PHASE_CHANGED, {"phase": phase, "aspect_index": aspect_index, "totals": self._spend(10)})
        return self

    def aspects(self, *labels: str) -> DebateLog:
        self._append(EventKind.ASPECTS_SET, {"aspects": [{"label": label, "description": ""} for label in labels]})
        return self

    def ask(self, persona, *, kind: str = "reply", room: CruxRoom | None = None) -> DebateLog:
        """The speaker's model call went out (nothing said yet): the page says who is thinking."""
        from debates.services.messages import turn_request_announce

        turn_request_announce(debate=self.debate, persona=persona, seat=self.seats[persona.id], kind=kind, room=room)
        return self

    def begin(self, persona, *, kind: str = "reply", room: CruxRoom | None = None) -> Message:
        key = room.id if room else None
        self.turns[key] = self.turns.get(key, 0) + 1
        message = Message.objects.create(
            debate=self.debate, room=room, persona=persona, kind=kind, turn=self.turns[key]
        )
        self._append(
            EventKind.MESSAGE_STARTED,
            {
                "message_id": message.id,
                "persona_id": persona.id,
                "persona_name": persona.name,
                "seat": self.seats[persona.id],
                "kind": kind,
                "turn": message.turn,
                "room_id": room.id if room else None,
                "aspect_index": None,
            },
        )
        return message

    def stream(self, message: Message, text: str) -> Message:
        """The text so far of a message still being written (saved on its row, not an event)."""
        Message.objects.filter(pk=message.pk).update(text=text)
        return message

    def finish(self, message: Message, text: str, *, citations: list[dict] = ()) -> Message:
        Message.objects.filter(pk=message.pk).update(
            text=text, status=Message.Status.COMPLETE, citations=list(citations)
        )
        payload = {"message_id": message.id, "text": text, "totals": self._spend()}
        if citations:
            payload["citations"] = list(citations)
        self._append(EventKind.MESSAGE_COMPLETED, payload)
        return message

    def say(self, persona, text: str, *, kind: str = "reply", room: CruxRoom | None = None) -> Message:
        return self.finish(self.begin(persona, kind=kind, room=room), text)

    def pass_turn(self, persona) -> DebateLog:
        self._append(
            EventKind.TURN_PASSED, {"persona_id": persona.id, "persona_name": persona.name, "totals": self._spend(5)}
        )
        return self

    def open_room(self, a, b, question: str) -> CruxRoom:
        index = CruxRoom.objects.filter(debate=self.debate).count()
        room = CruxRoom.objects.create(
            debate=self.debate, persona_a=a, persona_b=b, question=question, suit=SUITS[index % len(SUITS)]
        )
        self._append(
            EventKind.ROOM_OPENED,
            {
                "room_id": room.id,
                "persona_a": {"id": a.id, "name": a.name},
                "persona_b": {"id": b.id, "name": b.name},
                "question": question,
                "suit": room.suit,
                "trigger_message_ids": [],
            },
        )
        return room

    def close_room(self, room: CruxRoom, *, exit_reason: str = "surfaced") -> DebateLog:
        CruxRoom.objects.filter(pk=room.pk).update(status=CruxRoom.Status.DONE, exit_reason=exit_reason)
        self._append(EventKind.ROOM_CLOSED, {"room_id": room.id, "exit_reason": exit_reason, "failure": ""})
        return self

    def post_card(
        self,
        room: CruxRoom,
        *,
        question: str = "",
        reasoning: str = "Because the data say so.",
        falsifier: str = "A decade of contrary data.",
        diagnosis: str = "They weigh time differently.",
        resolved: bool = False,
        resolution: str = "",
        disagreement_type: str = "horizon",
    ) -> CruxCard:
        a, b = room.persona_a, room.persona_b
        positions = {
            str(a.id): {"name": a.name, "position": "YES", "reasoning": reasoning, "falsifier": falsifier},
            str(b.id): {"name": b.name, "position": "NO", "reasoning": reasoning, "falsifier": falsifier},
        }
        card = CruxCard.objects.create(
            room=room,
            debate=self.debate,
            question=question or room.question,
            positions=positions,
            disagreement_type=disagreement_type[:20],
            diagnosis=diagnosis,
            resolved=resolved,
            resolution=resolution,
        )
        self._append(
            EventKind.CARD_POSTED,
            {
                "card": {
                    "id": card.id,
                    "room_id": room.id,
                    "question": card.question,
                    "positions": [{"persona_id": int(pid), **data} for pid, data in positions.items()],
                    "disagreement_type": disagreement_type,
                    "diagnosis": diagnosis,
                    "resolved": resolved,
                    "resolution": resolution,
                    "suit": room.suit,
                }
            },
        )
        return card

    def ledger(
        self, persona, *, stance: str, concessions=(), shifts=(), unanswered=(), agrees=(), disagrees=(), side: str = ""
    ) -> DebateLog:
        """A LEDGER_UPDATED event, shaped like debates/blackboard/ledger.py's payload.
        agrees / disagrees: (persona, point) pairs."""
        self._append(
            EventKind.LEDGER_UPDATED,
            {
                "persona_id": persona.id,
                "name": persona.name,
                "stance": stance,
                "side": side,
                "concessions": list(concessions),
                "shifts": list(shifts),
                "unanswered": list(unanswered),
                "agreements": [{"with": other.id, "on": point, "name": other.name} for other, point in agrees],
                "disagreements": [
                    {"with": other.id, "on": point, "intensity": "strong", "name": other.name}
                    for other, point in disagrees
                ],
            },
        )
        return self

    def complete(self, results: dict | None = None, *, status: str = "completed") -> DebateLog:
        Debate.objects.filter(pk=self.debate.pk).update(status=status, phase="done", results=results or {})
        self._append(EventKind.DEBATE_FINISHED, {"status": status, "results": results or {}, "totals": self._spend(50)})
        return self

    def fail(self, reason: str) -> DebateLog:
        Debate.objects.filter(pk=self.debate.pk).update(status=Debate.Status.FAILED, failure_reason=reason)
        self._append(EventKind.DEBATE_FAILED, {"reason": reason})
        return self


def sample_results(text: str = "Will it hold?", names=("Ada", "Bram")) -> dict:
    return {
        "regime": "polarized",
        "cruxes": [
            {
                "question": text,
                "disagreement_type": "horizon",
                "diagnosis": text,
                "resolved": False,
                "resolution": "",
                "suit": "♠",
            }
        ],
        "fault_lines": [{"question": text, "sides": {"YES": [names[0]], "NO": [names[1]], "NUANCED": []}}],
        "flip_conditions": [{"persona": names[0], "question": text, "falsifier": text}],
        "resolution_paths": [{"question": text, "path": text, "resolved": False}],
        "evidence_ledger": [{"persona": names[1], "evidence": text, "used_for": text}],
    }
