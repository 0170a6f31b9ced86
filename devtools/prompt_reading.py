"""How a scripted model reads a request: what the call is (its X-Faultline-Call tag, ids only:
``Call``), what it must answer (a structured call's schema title) and the data of its prompt, in
the two line forms every prompt writes its data in (gateways/llm/prompt_lines.py):

- transcript lines, ``[turn N] Name: text``, one per message;
- item lines, ``[ID] text``, one per thing held by id (a participant ``[persona-id] Name``, a
  tracked dispute ``[12] ...``, a point ``[P1] ...``, the map's ``[D1]``/``[S1]``/``[R1]``, a
  passage ``[C1] (source) ...``), an item listed under another indented two spaces more;

a text's further lines indented two spaces more than its own line. Nothing else of a prompt is
read: not its instructions, not its section headers (the test suite rewords every one of them:
tests/support/rewording.py). What a scripted model needs beyond that comes from the call's tag
(whom a turn answers, its round, the turns a digest folds...) or from what the test or scenario
that made the personas gave it (their names and views, keyed by persona id).

The regular expressions here are the only ones a scripted model uses on a prompt:

- ``TRANSCRIPT_LINE``: ``^\\[turn (\\d+)\\] (name): (text)$``, a transcript line;
- ``ITEM_LINE``: ``^(indent)\\[(id)\\] (text)$``, an item line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from devtools.fake_messages_api import Call, message_text

TRANSCRIPT_LINE = re.compile(r"^\[turn (\d+)\] ([^:\n]+?): (.*)$")
ITEM_LINE = re.compile(r"^((?:  )*)\[([^\]\s]+)\] (.*)$")
INDENT = "  "
YOU = " (you)"  # after the name of the participant a turn is for (gateways/llm/prompt_lines.py)
RECENT_BEFORE = 3  # the messages before one that a digest's reader weighs with it


@dataclass(frozen=True)
class Said:
    """One transcript line: a message, its further lines joined back with line breaks."""

    turn: int
    name: str
    text: str


@dataclass(frozen=True)
class Item:
    """One item line: a thing held by id, and the item it is listed under (None at the top)."""

    id: str
    text: str
    depth: int = 0
    parent: str | None = None

    @property
    def holder(self) -> str:
        """Whose it is, for an item someone holds (``[S1] Name: text``)."""
        return self.text.partition(": ")[0]

    @property
    def held(self) -> str:
        """Its text after its holder's name (``[S1] Name: text`` -> text)."""
        return self.text.partition(": ")[2]


def schema_title(body: dict) -> str:
    """A structured call's schema title (what it asks for), "" for a spoken call."""
    output = (body.get("output_config") or {}).get("format")
    return output.get("schema", {}).get("title", "") if output else ""


def prompt_text(body: dict) -> str:
    """The request's first user message: where a prompt's data is (a repair request appends turns
    after it, a second draft changes only the system prompt)."""
    first = next((m for m in body.get("messages", []) if m.get("role") == "user"), None)
    return message_text(first.get("content")) if first else ""


def read_lines(text: str) -> tuple[list[Said], dict[str, Item]]:
    """The transcript lines and the item lines of ``text``, in order, each with its further lines."""
    said: list[tuple[int, str, list[str]]] = []
    items: dict[str, tuple[int, str | None, list[str]]] = {}
    kind, indent, lines = "", "", []  # what is being read on, its indent, its lines so far
    parents: list[str] = []  # the items a line at each depth would be listed under
    for line in text.split("\n"):
        if kind == "said" and line.startswith(INDENT):  # a message's further line, whatever it says
            lines.append(line[len(INDENT) :])
        elif message := TRANSCRIPT_LINE.match(line):
            kind, indent, lines = "said", "", [message[3]]
            said.append((int(message[1]), message[2], lines))
        elif item := ITEM_LINE.match(line):
            depth = len(item[1]) // len(INDENT)
            parents = parents[:depth]
            kind, indent, lines = "item", item[1], [item[3]]
            items[item[2]] = (depth, parents[-1] if parents else None, lines)
            parents.append(item[2])
        elif kind == "item" and line.startswith(indent + INDENT):
            lines.append(line[len(indent + INDENT) :])
        else:
            kind = ""
            if not line.startswith(INDENT):
                parents = []
    return (
        [Said(turn, name, "\n".join(text_lines)) for turn, name, text_lines in said],
        {
            key: Item(key, "\n".join(text_lines), depth=depth, parent=parent)
            for key, (depth, parent, text_lines) in items.items()
        },
    )


@dataclass
class Reading:
    """One request as a scripted model may read it: its call, its schema's title, its transcript
    lines and its item lines."""

    body: dict
    call: Call = field(default_factory=Call)

    def __post_init__(self) -> None:
        self.title = schema_title(self.body)
        self.said, self.items = read_lines(prompt_text(self.body))

    def said_at(self, turn: int) -> Said | None:
        return next((said for said in self.said if said.turn == turn), None)

    def name_of(self, persona_id: str) -> str:
        """A participant's name, from its item line (``[persona-id] Name``); "" when not listed."""
        item = self.items.get(persona_id)
        return item.text.removesuffix(YOU) if item else ""

    def id_of(self, name: str) -> str:
        """A participant's persona id, from the item line that names them (``[persona-id] Name``),
        among the participants the tag lists; "" when none does. What a structured answer names
        a participant by."""
        return next((persona_id for persona_id in self.call.participants if self.name_of(persona_id) == name), "")

    @property
    def participant_ids(self) -> list[str]:
        """The participants' persona ids, in the tag's (seat) order, those the prompt lists."""
        return [persona_id for persona_id in self.call.participants if self.name_of(persona_id)]

    @property
    def participants(self) -> list[str]:
        """The participants' names, in the tag's (seat) order, as the prompt lists them."""
        return [name for persona_id in self.call.participants if (name := self.name_of(persona_id))]

    def asked(self) -> list[tuple[Said, list[Said]]]:
        """Each message the call's tag asks about (``turns``: a digest's to fold), with the
        RECENT_BEFORE messages shown before it."""
        found = []
        for turn in self.call.turns:
            at = next((i for i, said in enumerate(self.said) if said.turn == turn), None)
            if at is not None:
                found.append((self.said[at], self.said[max(0, at - RECENT_BEFORE) : at]))
        return found


def digest_answer(reading: Reading, update, scan=None) -> dict:
    """A ledger digest's answer (LedgerDigest, or WindowDigest with ``scan``): for each message
    the tag asks about (its speaker named by persona id, as the digest's participant lines give
    it), ``update(reading, said, before) -> dict`` (one ledger update), and for a
    window ``scan(reading) -> {"disagreements": [...]}`` over all its transcript lines. So each
    script keeps one way of reading a message and one of reading a window."""
    answer = {
        "updates": [
            {**update(reading, said, before), "turn": said.turn, "speaker": reading.id_of(said.name) or said.name}
            for said, before in reading.asked()
        ]
    }
    if scan is not None:
        answer.update(scan(reading))
    return answer
