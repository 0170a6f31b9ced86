"""The Collaborate mode's artifact as plain text: what of a synthesis model's output is kept, and
what stands in for it when there is nothing usable. Pure Python, no Django."""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})[ \t]*(?:markdown|md)?[ \t]*\n(?P<body>.*?)\n?\s*\1\s*$", re.S | re.I)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*#*\s*$", re.M)
_PREAMBLE = re.compile(r"^(?:here(?:'s| is) (?:the|your|an?) [^\n]*?(?:document|artifact)[^\n]*?:)\s*\n", re.I)


def artifact_markdown(text: str) -> str:
    """The document in a synthesis model's output: a wrapping ```markdown fence and a "Here is the
    document:" line taken off, surrounding blank space trimmed ("" when nothing is left)."""
    text = (text or "").strip()
    text = _PREAMBLE.sub("", text, count=1).strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group("body")
    return text.strip()


def artifact_fallback(brief: str, answers: list[tuple[str, str]]) -> str:
    """The artifact when the synthesis could not be written: the brief as the title and each role's
    latest answer under its name, so the run still ends with one document."""
    parts = [f"# {_one_line(brief)}", "_The synthesis could not be written; the two revised answers follow._"]
    for name, answer in answers:
        parts.append(f"## {name}\n\n{answer.strip() or '(no answer)'}")
    return "\n\n".join(parts)


def artifact_title(markdown: str, brief: str) -> str:
    """The document's first heading, or the brief, as one line of at most 150 characters."""
    heading = _HEADING.search(markdown or "")
    title = _one_line(heading.group("title") if heading else brief)
    title = re.sub(r"[*_`]+", "", title).strip() or "Artifact"
    return title if len(title) <= 150 else title[:149] + "…"


def _one_line(text: str) -> str:
    return " ".join((text or "").split())
