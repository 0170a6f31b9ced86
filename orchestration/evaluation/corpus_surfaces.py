"""What a user can see of a finished corpus debate, gathered for the metrics: every surface as text
(the live page with its side panels, the replay, the results page, the printable summary, the
results' Markdown, the Markdown and JSON exports, the artifact's Markdown, ``rundebate``'s
printout), the speech stored (every message), and every name the app recorded about someone.

Surfaces are fetched as their owner fetches them (the test client, logged in as the debate's
owner) and folded for search: tags dropped, entities and Markdown escapes undone, quotes and
spaces folded, lower case (orchestration/voice.py folds phrases the same way).
"""

from __future__ import annotations

import html
import re

from django.test import Client
from django.test.utils import override_settings

from crux.models import CruxCard
from debates.blackboard.models import PositionState
from debates.models import Debate, Event, Message
from debates.payloads import EventKind
from orchestration.modes.printing import print_debate
from orchestration.voice import find_forbidden

SURFACES = {
    "page": "/debates/{id}/",
    "replay": "/debates/{id}/replay/",
    "results": "/debates/{id}/results/",
    "summary": "/debates/{id}/summary/",
    "results.md": "/debates/{id}/results.md",
    "export.md": "/debates/{id}/export.md",
    "export.json": "/debates/{id}/export.json",
    "artifact.md": "/debates/{id}/artifact.md",
}
# Where the app writes someone's name in what it recorded (the map's, the ledgers', the cards').
NAME_KEYS = frozenset(
    ["persona", "name", "holder", "holders", "speaker", "proposed_by", "persona_a", "persona_b", "conceded_by",
     "granted_by", "crux_proposed_by", "from_holder", "to_holder"]
)  # fmt: skip
_TAG = re.compile(r"<[^>]+>")


def fold(text: str) -> str:
    """A surface's text as it is searched."""
    text = html.unescape(_TAG.sub(" ", text or ""))
    text = re.sub(r"\\([\\\[\]])", r"\1", text)  # Markdown escapes (debates/exports.py)
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    return " ".join(text.split()).lower()


def surfaces(debate: Debate, owner) -> dict[str, str]:
    """Every surface of the debate, folded; a surface the debate's mode has not (404) is left out."""
    client = Client()
    client.force_login(owner)
    found = {}
    with override_settings(ALLOWED_HOSTS=["testserver"]):  # the client's host, in this process only
        for name, path in SURFACES.items():
            if name == "artifact.md" and debate.mode != "collaborate":
                continue
            response = client.get(path.format(id=debate.id))
            if response.status_code == 200:
                body = b"".join(response.streaming_content) if response.streaming else response.content
                found[name] = fold(body.decode("utf-8", "replace"))
    found["cli"] = fold(cli_printout(debate))
    return found


def cli_printout(debate: Debate) -> str:
    """What ``rundebate`` prints for the finished debate (its own printer, as after a run)."""
    lines: list[str] = []
    print_debate(debate, lines.append)
    return "\n".join(lines)


def speech(debate: Debate) -> list[dict]:
    """Every message the app stored (main channel and rooms): who said it, where, its text."""
    rows = Message.objects.filter(debate=debate).select_related("persona").order_by("room_id", "turn")
    return [
        {"speaker": m.persona.name, "kind": m.kind, "room": m.room_id, "turn": m.turn, "text": m.text}
        for m in rows
        if m.text
    ]


def forbidden_on_surfaces(said: list[dict], phrases_for, found: dict[str, str]) -> list[dict]:
    """Each forbidden phrase a stored message holds (``phrases_for(speaker)``: the house's and
    the speaker's own), with the surfaces its sentence reaches. The app's own labels (the NUANCED
    side's "it depends") are not speech, so they are never looked at: only what was said is."""
    hits = []
    for message in said:
        for phrase in find_forbidden(message["text"], list(phrases_for(message["speaker"]))):
            sentence = _sentence_with(message["text"], phrase)
            hits.append(
                {
                    "phrase": phrase,
                    "speaker": message["speaker"],
                    "where": f"{message['kind']} {message['turn']}"
                    + (f" (room {message['room']})" if message["room"] else ""),
                    "surfaces": ["messages", *sorted(name for name, text in found.items() if fold(sentence) in text)],
                }
            )
    return hits


def _sentence_with(text: str, phrase: str) -> str:
    folded = phrase.lower().replace("’", "'")
    for sentence in re.split(r"(?<=[.!?])\s+|\n+", text):
        if folded in sentence.lower().replace("’", "'"):
            return sentence.strip()
    return phrase


def names_recorded(debate: Debate, results: dict) -> list[tuple[str, str]]:
    """(where, name) of every name the app recorded about someone: the evidence ledger's WHO, the
    crux cards' positions, the position ledgers (agreements, disagreements, challenges), the
    proposals and their reactions, the map's stances, reasons and concessions, the results."""
    found: list[tuple[str, str]] = []
    _walk("results", results, found)
    for card in CruxCard.objects.filter(debate=debate):
        _walk("crux card", card.positions, found)
    for state in PositionState.objects.filter(debate=debate):
        for field in ("agreements", "disagreements", "concessions", "shifts", "aspect_positions"):
            _walk(f"position ledger {field}", getattr(state, field), found)
    for payload in Event.objects.filter(debate=debate, kind=EventKind.CONVERSATION_NOTED).values_list(
        "payload", flat=True
    ):
        for proposal in payload.get("proposals", []):
            found.append(("proposals", proposal.get("by", "")))
            found += [("proposal reactions", name) for name in (proposal.get("reactions") or {})]
    for payload in Event.objects.filter(debate=debate, kind=EventKind.GRAPH_UPDATED).values_list("payload", flat=True):
        _walk("map", payload.get("graph") or {}, found)
    return found


def _walk(where: str, value, found: list) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in NAME_KEYS and isinstance(item, str):
                found.append((where, item))
            elif key in NAME_KEYS and isinstance(item, list):
                found += [(where, name) for name in item if isinstance(name, str)]
            elif key == "sides" and isinstance(item, dict):
                found += [
                    (where, name)
                    for names in item.values()
                    if isinstance(names, list)
                    for name in names
                    if isinstance(name, str)
                ]
            else:
                _walk(where, item, found)
    elif isinstance(value, list):
        for item in value:
            _walk(where, item, found)
