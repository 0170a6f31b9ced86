"""The turn-kind table: everything that varies by kind of turn, in one row per kind.

The orchestrator reads the token cap, sentence limit and instruction; the turn budget and the
speaker choice read ``dialogue``; the page reads ``label``. Adding a kind of turn is adding a row
here (and its value to ``Message.Kind``), nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from debates import prompts as words
from debates.models import Message


@dataclass(frozen=True)
class TurnKind:
    kind: str
    label: str
    max_tokens: int  # generation cap: a safety net, the sentence limit is what shapes the turn
    sentence_limit: int  # at most this many distinct sentences reach the page
    # Registers by turn type (seeds/past-engines-and-crux-rooms.md §6, area 1): a length that fits
    # what the turn is for. {addressee} and {question} are filled in by the context assembler; the
    # wording is debates/prompts.py's.
    instruction: str
    dialogue: bool = False  # counts against the debate's turn budget (Debate.max_turns)
    room: bool = False  # spoken in a crux room, not the main channel


_ROWS = [
    TurnKind(
        Message.Kind.OPENING,
        "opening",
        350,
        5,
        words.OPENING,
    ),
    TurnKind(
        Message.Kind.KEY_ARGUMENT,
        "key argument",
        450,
        6,
        words.KEY_ARGUMENT,
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.REPLY,
        "reply",
        260,
        3,
        words.REPLY,
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.ANSWER,
        "answer to the owner",
        320,
        4,
        words.ANSWER,
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.DISMISSAL,
        "dismissal",
        120,
        1,
        words.DISMISSAL,
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.CLOSING,
        "closing",
        320,
        4,
        words.CLOSING,
    ),
    TurnKind(
        Message.Kind.ENTRY,
        "entry",
        220,
        3,
        words.ENTRY,
        room=True,
    ),
    TurnKind(
        Message.Kind.EXCHANGE,
        "exchange",
        260,
        3,
        words.EXCHANGE,
        room=True,
    ),
    # Analyst/Critic mode (orchestration/modes/analyst_critic/): longer, structured answers.
    TurnKind(
        Message.Kind.ANALYSIS,
        "Analyst",
        900,
        14,
        words.ANALYSIS,
    ),
    # The Critic's evaluation (about 12 sentences) ends with Proflow's Agreement Assessment: its
    # headings and a line per point count as sentences too (issue 39), so the cap leaves room for it.
    TurnKind(
        Message.Kind.CRITIQUE,
        "Critic",
        1500,
        36,
        words.CRITIQUE,
    ),
    TurnKind(
        Message.Kind.SYNTHESIS,
        "Synthesis",
        1400,
        20,
        words.SYNTHESIS,
    ),
    # Collaborate mode (orchestration/modes/collaborate/): long-form Markdown, streamed whole (no
    # sentence cap reaches these: the sentence limit is only a ceiling for the table's sake).
    TurnKind(
        Message.Kind.DRAFT,
        "first answer",
        1500,
        60,
        words.DRAFT,
    ),
    TurnKind(
        Message.Kind.REVISION,
        "revised answer",
        1500,
        60,
        words.REVISION,
    ),
    TurnKind(
        Message.Kind.ARTIFACT,
        "artifact",
        3000,
        200,
        words.ARTIFACT,
    ),
]
TURN_KINDS: dict[str, TurnKind] = {row.kind.value: row for row in _ROWS}
assert set(TURN_KINDS) == set(Message.Kind.values), "every Message.Kind needs a row in TURN_KINDS"

DIALOGUE_KINDS = [row.kind.value for row in _ROWS if row.dialogue]


def turn_kind(kind: str) -> TurnKind:
    return TURN_KINDS[str(kind)]
