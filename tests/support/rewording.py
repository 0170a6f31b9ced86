"""Every prompt's wording, said another way, for the whole test run: proof that nothing (no
scripted model, no test, no code) depends on how an instruction is worded, only on what a call's
tag says and on the data lines of its prompt (gateways/llm/prompt_lines.py).

A prompt's wording is every module-level string of every app's ``prompts.py`` (the one place
each app keeps it; ``UNWORDED`` lists the one that is a protocol token, not wording). Each is
reworded the same way every time (``reworded``): its sentences in another order, list items in
reverse, words swapped for ones of the same meaning (``SAME_MEANING``), section titles and short
phrases said otherwise (``TITLES``, ``PHRASES``), and where none of that applies a word of
preamble in front; its ``{placeholders}`` and its leading and trailing blanks kept.

``Rewording().apply()`` puts the reworded strings in place: in their prompt module, and wherever
a loaded module of ours holds the very same string object (``from x.prompts import NAME``, a
table row, a dict of them), so every caller sees them; ``undo()`` puts the originals back.
tests/conftest.py applies it for the whole session (and the shared test worker applies it at
start-up: tests/support/reworded_worker.py); a test that checks a prompt's own wording is marked
``original_prompts`` and sees the originals. ``FAULTLINE_TEST_REWORDED_PROMPTS=0`` runs the suite
with the original wording.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import string
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENV = "FAULTLINE_TEST_REWORDED_PROMPTS"
# Our packages: where a prompt module is, and where a copy of one of its strings may be held.
PACKAGES = ("orchestration", "atlas", "memory", "crux", "debates", "projects", "personas", "gateways", "tests")
UNWORDED = {("orchestration.prompts", "PASS_WORD")}  # the word a turn answers with to pass

# Words said another way, whole words only, outside {placeholders}; a capital kept.
SAME_MEANING = {
    "debate": "discussion",
    "debates": "discussions",
    "participant": "person taking part",
    "participants": "people taking part",
    "disagreement": "difference of view",
    "disagreements": "differences of view",
    "sentences": "full sentences",
    "concede": "grant",
    "conceded": "granted",
    "conceding": "granting",
    "plainly": "clearly",
    "honestly": "truthfully",
    "concrete": "specific",
    "short": "brief",
    "never": "not ever",
    "invent": "make up",
    "write": "put down",
    "evaluate": "assess",
    "strongest": "best",
}
# Section titles and short phrases, said another way (a title not listed gets " NOW" after it).
TITLES = {
    "YOUR TURN": "NOW IT IS YOUR TURN",
    "DEBATE STATE": "WHERE THE DEBATE IS",
    "SO FAR": "UP TO NOW",
    "RECENT EXCHANGE": "THE LAST FEW MESSAGES",
    "RULES": "HOW TO SPEAK",
    "THE MAP NOW": "THE MAP AS IT STANDS",
}
PHRASES = {
    "the others": "everyone else",
    "you": "yourself",
    "open": "still open",
    "decided": "settled",
    "none": "nothing",
    "(none)": "(nothing yet)",
    "(none yet)": "(nothing yet)",
    "(empty)": "(nothing yet)",
    "(unspecified)": "(not given)",
    "(wrote nothing)": "(nothing written)",
    "(no clear position yet)": "(position not clear yet)",
    "(this repository)": "(from this repository)",
    "(this assignment)": "(from this assignment)",
    "(empty: no disputes yet)": "(nothing on the map yet)",
}
PREAMBLE = "Note: "
_PLACEHOLDER = re.compile(r"\{\w*\}")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"({\[])")
_ITEM = re.compile(r"^(\s*)([-•]|\d+\.) ")


def prompt_modules() -> list[types.ModuleType]:
    """Every app's prompts module (``<app>/.../prompts.py``), imported."""
    names = []
    for package in PACKAGES:
        if package == "tests":
            continue
        for path in sorted((ROOT / package).rglob("prompts.py")):
            names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return [importlib.import_module(name) for name in names]


def has_wording(text: str) -> bool:
    """Whether there is anything to reword: a letter outside the placeholders."""
    return any(character.isalpha() for character in _PLACEHOLDER.sub("", text))


def prompt_constants() -> dict[tuple[str, str], str]:
    """(module, name) -> text of every module-level string of wording in a prompts module."""
    found = {}
    for module in prompt_modules():
        for name, value in vars(module).items():
            if (
                isinstance(value, str)
                and name.isupper()
                and not name.startswith("_")
                and (module.__name__, name) not in UNWORDED
                and has_wording(value)
            ):
                found[module.__name__, name] = value
    return found


def placeholders(text: str) -> list[str]:
    return sorted(field for _, field, _, _ in string.Formatter().parse(text) if field is not None)


# ── the rewording ────────────────────────────────────────────────────────────────────────────────


def reworded(text: str) -> str:
    """``text`` said another way, the same way each time (see the module's docstring)."""
    stripped = text.strip()
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()) :]
    if stripped in PHRASES:
        return lead + PHRASES[stripped] + trail
    paragraphs = [_paragraph(paragraph) for paragraph in stripped.split("\n\n")]
    result = "\n\n".join(paragraphs)
    if result == stripped:
        result = PREAMBLE + result
    return lead + result + trail


def _is_title(line: str) -> bool:
    words = _PLACEHOLDER.sub("", line)
    return any(c.isalpha() for c in words) and words.upper() == words and not _ITEM.match(line)


def _title(line: str) -> str:
    return TITLES.get(line.strip(), line.rstrip() + " NOW")


def _paragraph(paragraph: str) -> str:
    """A paragraph said otherwise: a list by ``_listed``; else each title line by ``_title``, each
    line that is only a placeholder kept on its own line (what fills it may be data lines, which
    start a line), and the prose between them (hard-wrapped lines joined) by ``_prose``."""
    lines = paragraph.split("\n")
    if any(_ITEM.match(line) for line in lines):
        return _listed(lines)
    out, prose = [], []
    for line in [*lines, None]:
        if line is not None and not _is_title(line) and has_wording(line):
            prose.append(line)
            continue
        if prose:
            out.append(_prose(" ".join(part.strip() for part in prose)))
            prose = []
        if line is not None:
            out.append(_title(line) if _is_title(line) else line)
    return "\n".join(out)


def _listed(lines: list[str]) -> str:
    """A list: its lines before the first item kept (a title said otherwise), its items (each with
    its wrapped lines) in reverse order, each item's words said otherwise."""
    head, items = [], []
    for line in lines:
        if _ITEM.match(line):
            items.append([line])
        elif items:
            items[-1].append(line)
        else:
            head.append(line)
    head = [_title(line) if _is_title(line) else _prose(line) for line in head]
    return "\n".join([*head, *("\n".join(_swapped(line) for line in item) for item in reversed(items))])


def _prose(text: str) -> str:
    sentences = _SENTENCE_END.split(text)
    if len(sentences) > 1:
        sentences = sentences[1:] + sentences[:1]  # the first sentence last
    return _swapped(" ".join(sentences))


def _swapped(text: str) -> str:
    """Words of SAME_MEANING swapped, outside the placeholders."""
    parts = re.split(r"(\{\w*\})", text)
    return "".join(part if _PLACEHOLDER.fullmatch(part) else _swap_words(part) for part in parts)


def _swap_words(text: str) -> str:
    def swap(match: re.Match) -> str:
        word = match.group(0)
        other = SAME_MEANING.get(word.lower())
        if other is None:
            return word
        if word.isupper() and len(word) > 1:
            return other.upper()
        return other[0].upper() + other[1:] if word[0].isupper() else other

    return re.sub(r"(?<![\w-])[A-Za-z]+(?![\w-])", swap, text)  # whole words: not "re-debate"


# ── putting it in place ──────────────────────────────────────────────────────────────────────────


class Rewording:
    """The reworded prompts, put in place (``apply``) and taken back (``undo``)."""

    def __init__(self) -> None:
        self.originals = prompt_constants()
        self.new = {key: reworded(text) for key, text in self.originals.items()}
        self._patches: list[tuple[object, object, object, object]] = []  # (holder, key, original, new)

    def apply(self) -> None:
        self.undo()
        for (module_name, name), text in self.new.items():
            self._set(sys.modules[module_name], name, self.originals[module_name, name], text)
        # Copies of the very same string object elsewhere: imported by name, held in a table. A
        # short one-word string may be interned (shared by unrelated code): only its module holds it.
        shared = {key for key, text in self.originals.items() if not text.isidentifier()}
        wanted = {id(self.originals[key]): self.new[key] for key in shared}
        seen: set[int] = set()
        for module_name, module in list(sys.modules.items()):
            if module_name.split(".")[0] in PACKAGES and isinstance(module, types.ModuleType):
                self._walk(module, wanted, seen, depth=0)

    def undo(self) -> None:
        for holder, key, original, _ in reversed(self._patches):
            self._put(holder, key, original)
        self._patches = []

    def _set(self, holder, key, original, new) -> None:
        self._patches.append((holder, key, original, new))
        self._put(holder, key, new)

    @staticmethod
    def _put(holder, key, value) -> None:
        if isinstance(holder, (dict, list)):
            holder[key] = value
        else:
            object.__setattr__(holder, key, value)  # a module, a class, a (frozen) dataclass

    def _walk(self, holder, wanted: dict[int, str], seen: set[int], depth: int) -> None:
        if id(holder) in seen or depth > 3:
            return
        seen.add(id(holder))
        if isinstance(holder, dict):
            entries = list(holder.items())
        elif isinstance(holder, list):
            entries = list(enumerate(holder))
        elif isinstance(holder, (types.ModuleType, type)):
            entries = [(key, value) for key, value in vars(holder).items() if not key.startswith("__")]
        elif dataclasses.is_dataclass(holder):
            entries = [(f.name, getattr(holder, f.name)) for f in dataclasses.fields(holder)]
        else:
            return
        for key, value in entries:
            if isinstance(value, str):
                if id(value) in wanted:
                    self._set(holder, key, value, wanted[id(value)])
            elif self._holds_strings(value):
                self._walk(value, wanted, seen, depth + 1)

    @staticmethod
    def _holds_strings(value) -> bool:
        """What may hold a copy of a prompt string: a dict, a list, one of our classes, a dataclass
        instance (a module is walked on its own)."""
        if isinstance(value, type):
            return value.__module__.split(".")[0] in PACKAGES
        return isinstance(value, (dict, list)) or dataclasses.is_dataclass(value)


def enabled() -> bool:
    return os.environ.get(ENV, "1") != "0"


# ── the pytest plugin (tests/conftest.py loads it) ──────────────────────────────────────────────


def pytest_configure(config) -> None:
    config.addinivalue_line(
        "markers",
        "original_prompts: the test checks a prompt's own wording, so it sees the original prompts "
        "(every other test runs with every prompt reworded: tests/support/rewording.py)",
    )


@pytest.fixture(scope="session")
def rewording():
    """The session's rewording of every prompt (None when FAULTLINE_TEST_REWORDED_PROMPTS=0)."""
    if not enabled():
        yield None
        return
    words = Rewording()
    words.apply()
    yield words
    words.undo()


@pytest.fixture(autouse=True)
def reworded_prompts(request, rewording):
    """Every test runs with the prompts reworded, but one marked ``original_prompts``."""
    if rewording is None or request.node.get_closest_marker("original_prompts") is None:
        yield
        return
    rewording.undo()
    try:
        yield
    finally:
        rewording.apply()


def reworded_worker(command: list[str], env: dict) -> tuple[list[str], dict]:
    """A Celery worker command (ops.launcher.celery_worker_command) started with the prompts
    reworded as in this process: the app module swapped for tests/support/reworded_worker.py."""
    if not enabled():
        return command, env
    at = command.index("-A")
    return [*command[: at + 1], "tests.support.reworded_worker", *command[at + 2 :]], {**env, ENV: "1"}
