"""The turn-kind table: everything that varies by kind of turn, in one row per kind.

The orchestrator reads the token cap, sentence limit and instruction; the turn budget and the
speaker choice read ``dialogue``; the page reads ``label``. Adding a kind of turn is adding a row
here (and its value to ``Message.Kind``), nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from debates.models import Message


@dataclass(frozen=True)
class TurnKind:
    kind: str
    label: str
    max_tokens: int  # generation cap: a safety net, the sentence limit is what shapes the turn
    sentence_limit: int  # at most this many distinct sentences reach the page
    # Registers by turn type (seeds/past-engines-and-crux-rooms.md §6, area 1): a length that fits
    # what the turn is for. {addressee} and {question} are filled in by the context assembler.
    instruction: str
    dialogue: bool = False  # counts against the debate's turn budget (Debate.max_turns)
    room: bool = False  # spoken in a crux room, not the main channel


_ROWS = [
    TurnKind(
        Message.Kind.OPENING,
        "opening",
        350,
        5,
        "Give your opening statement on the topic: 3-5 sentences that say where you stand and why.",
    ),
    TurnKind(
        Message.Kind.KEY_ARGUMENT,
        "key argument",
        450,
        6,
        "Make your key argument on the current aspect: 4-6 sentences, concrete, in your own voice.",
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.REPLY,
        "reply",
        260,
        3,
        "Reply to {addressee}'s last point, by name: 2-3 sentences. If it deserves only a dismissal, "
        "one sentence. If you have nothing to add right now, reply with exactly PASS.",
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.ANSWER,
        "answer to the owner",
        320,
        4,
        "Answer the owner's interjection above first, by what it says: 2-4 sentences in your own voice, "
        "then how it bears on the current aspect. Do not pass.",
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.DISMISSAL,
        "dismissal",
        120,
        1,
        "Dismiss {addressee}'s last point in one sentence, by name.",
        dialogue=True,
    ),
    TurnKind(
        Message.Kind.CLOSING,
        "closing",
        320,
        4,
        "Closing statement: 2-4 sentences. Where you stand now, anything you conceded, and the one "
        "question that would settle the disagreement that remains.",
    ),
    TurnKind(
        Message.Kind.ENTRY,
        "entry",
        220,
        3,
        "You have stepped into a side room with {addressee} to get to the bottom of one disagreement: "
        '"{question}". State your position on exactly that question in 1-3 sentences.',
        room=True,
    ),
    TurnKind(
        Message.Kind.EXCHANGE,
        "exchange",
        260,
        3,
        "Answer what {addressee} just said, directly and by name, in 2-3 sentences. Push on the point "
        "where the two of you really differ; concede what is right.",
        room=True,
    ),
    # Analyst/Critic mode (orchestration/modes/analyst_critic/): longer, structured answers.
    TurnKind(
        Message.Kind.ANALYSIS,
        "Analyst",
        900,
        14,
        "Answer the question as the Analyst: a clear, reasoned answer in numbered points.",
    ),
    TurnKind(
        Message.Kind.CRITIQUE,
        "Critic",
        800,
        12,
        "Evaluate the Analyst's answer as the Critic: what holds, what does not and why, what cannot be verified.",
    ),
    TurnKind(
        Message.Kind.SYNTHESIS,
        "Synthesis",
        1400,
        20,
        "Write the final, balanced answer from the debate and every agreed point.",
    ),
    # Collaborate mode (orchestration/modes/collaborate/): long-form Markdown, streamed whole (no
    # sentence cap reaches these: the sentence limit is only a ceiling for the table's sake).
    TurnKind(
        Message.Kind.DRAFT,
        "first answer",
        1500,
        60,
        "Answer the brief from your role: concrete, structured Markdown (headings, lists), no preamble.",
    ),
    TurnKind(
        Message.Kind.REVISION,
        "revised answer",
        1500,
        60,
        "Revise your answer on the other role's: adopt what they got right, fix what they showed wrong, "
        "keep and defend what still holds. The full revised answer, in Markdown, no preamble.",
    ),
    TurnKind(
        Message.Kind.ARTIFACT,
        "artifact",
        3000,
        200,
        "Write one Markdown document from the two revised answers: a title, then the merged content, "
        "with any point the two still disagree on stated as an open question.",
    ),
]
TURN_KINDS: dict[str, TurnKind] = {row.kind.value: row for row in _ROWS}
assert set(TURN_KINDS) == set(Message.Kind.values), "every Message.Kind needs a row in TURN_KINDS"

DIALOGUE_KINDS = [row.kind.value for row in _ROWS if row.dialogue]


def turn_kind(kind: str) -> TurnKind:
    return TURN_KINDS[str(kind)]
