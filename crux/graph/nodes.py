"""The dispute-centric graph's vocabulary: its nodes (disputes, stances, reasons and the
assumptions under them), the mutations a crystallizer may propose, and the transcript they are
checked against. Pure Python; the rules that admit and apply mutations are in dispute_graph.py."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

YES, NO = "YES", "NO"
SUPPORTS, ATTACKS = "supports", "attacks"
DISAGREEMENT_TYPES = ("horizon", "evidence", "values", "definition", "claim", "premise")


class Rejected(Exception):
    """A mutation that breaks a rule of the graph; the message says which."""


def _clean(text: str, limit: int) -> str:
    text = " ".join(str(text or "").split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _key(text: str) -> str:
    """Loose identity of a question or reason: case, punctuation and spacing do not matter."""
    return re.sub(r"[^a-z0-9]+", " ", str(text).casefold()).strip()


def other_side(side: str) -> str:
    return NO if side == YES else YES


# ── Nodes ─────────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class Assumption:
    """An unstated premise an argument rests on, and the question whose answer would settle it."""

    text: str
    settling_question: str = ""

    def to_dict(self) -> dict:
        return {"text": self.text, "settling_question": self.settling_question}

    @classmethod
    def from_dict(cls, data: Mapping) -> Assumption:
        return cls(text=data["text"], settling_question=data.get("settling_question", ""))


@dataclass
class Dispute:
    id: str
    question: str
    disagreement_type: str = "claim"
    turn: int = 0
    round: int = 0
    crux_proposed_by: list[str] = field(default_factory=list)


@dataclass
class Stance:
    id: str
    dispute: str
    holder: str
    side: str
    claim: str
    turn: int = 0
    round: int = 0
    assumptions: list[Assumption] = field(default_factory=list)


@dataclass
class Reason:
    id: str
    stance: str
    holder: str
    relation: str
    text: str
    turn: int = 0
    round: int = 0
    assumptions: list[Assumption] = field(default_factory=list)
    granted_by: list[str] = field(default_factory=list)


# ── Mutations ─────────────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class StanceDraft:
    persona: str
    side: str
    claim: str
    turn: int
    assumptions: tuple[Assumption, ...] = ()


@dataclass(frozen=True)
class AddDispute:
    question: str
    stances: tuple[StanceDraft, ...]
    disagreement_type: str = "claim"
    op = "add_dispute"

    @property
    def turn(self) -> int:
        return max((s.turn for s in self.stances), default=0)

    def describe(self) -> str:
        return f"open dispute “{_clean(self.question, 80)}”"


@dataclass(frozen=True)
class AddStance:
    dispute: str
    stance: StanceDraft
    op = "add_stance"

    @property
    def turn(self) -> int:
        return self.stance.turn

    def describe(self) -> str:
        return f"{self.stance.persona} says {self.stance.side} on {self.dispute}"


@dataclass(frozen=True)
class AddReason:
    stance: str
    persona: str
    relation: str
    text: str
    turn: int
    assumptions: tuple[Assumption, ...] = ()
    op = "add_reason"

    def describe(self) -> str:
        return f"{self.persona}: reason that {self.relation} {self.stance}"


@dataclass(frozen=True)
class Concede:
    persona: str
    target: str
    turn: int
    what: str = ""
    op = "concede"

    def describe(self) -> str:
        return f"{self.persona} concedes {self.target}"


@dataclass(frozen=True)
class Reframe:
    dispute: str
    question: str
    persona: str = ""
    turn: int = 0
    op = "reframe"

    def describe(self) -> str:
        return f"reframe {self.dispute}"


@dataclass(frozen=True)
class ProposeCrux:
    dispute: str
    persona: str
    turn: int
    op = "propose_crux"

    def describe(self) -> str:
        return f"{self.persona} proposes {self.dispute} as the crux"


Mutation = AddDispute | AddStance | AddReason | Concede | Reframe | ProposeCrux
# Within one turn, concessions come first: "I was wrong about X; but Y" gives up X, then adds Y,
# and a side switch (concede, then a new stance) must happen in that order.
_ORDER_IN_TURN = {"concede": 0, "add_dispute": 1, "add_stance": 2, "add_reason": 3, "reframe": 4, "propose_crux": 5}


def in_turn_order(mutations: Iterable[Mutation]) -> list[Mutation]:
    return sorted(mutations, key=lambda m: (m.turn, _ORDER_IN_TURN[m.op]))


@dataclass(frozen=True)
class Transcript:
    """Who may be named, and who spoke each main-channel turn so far. ``ids``: persona id -> name,
    the ids the crystallizer was shown (``[persona-id] Name`` lines) and names people by."""

    participants: tuple[str, ...]
    speakers: Mapping[int, str]
    ids: Mapping[str, str] = field(default_factory=dict)

    def persona(self, name: str) -> str:
        """The participant a proposal names: by the persona id it was shown (brackets and case
        aside), else by the exact name forgiving case, spacing and a leading 'The'. Anyone else
        is rejected with the proposal."""
        given = str(name or "").strip().strip("[]").strip().casefold()
        for persona_id, participant in self.ids.items():
            if given and given == persona_id.casefold() and participant in self.participants:
                return participant
        wanted = _key(re.sub(r"^\s*the\s+", "", str(name or ""), flags=re.IGNORECASE))
        for participant in self.participants:
            if wanted and wanted == _key(re.sub(r"^\s*the\s+", "", participant, flags=re.IGNORECASE)):
                return participant
        raise Rejected(f"{name!r} is not a participant")

    def check_turn(self, persona: str, turn: int) -> None:
        speaker = self.speakers.get(turn)
        if speaker is None:
            raise Rejected(f"there is no turn {turn}")
        if speaker != persona:
            raise Rejected(f"turn {turn} was spoken by {speaker}, not {persona}")


@dataclass
class BatchResult:
    applied: list[dict] = field(default_factory=list)  # {"op", "summary", "turn", "persona"}
    rejected: list[dict] = field(default_factory=list)  # {"op", "summary", "reason"}
    new_attacks: list[dict] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
