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
    latest answer under its name, so the run still ends with one document. A role that wrote
    nothing gets a note in the document's own voice (italic, naming the role), never words put in
    its mouth."""
    parts = [f"# {_one_line(brief)}", "_The synthesis could not be written; the two revised answers follow._"]
    for name, answer in answers:
        parts.append(f"## {name}\n\n{answer.strip() or f'_(The {name} wrote nothing.)_'}")
    return "\n\n".join(parts)


def artifact_title(markdown: str, brief: str) -> str:
    """The document's first heading, or the brief, as one line of at most 150 characters."""
    heading = _HEADING.search(markdown or "")
    title = _one_line(heading.group("title") if heading else brief)
    title = re.sub(r"[*_`]+", "", title).strip() or "Artifact"
    return title if len(title) <= 150 else title[:149] + "…"


def _one_line(text: str) -> str:
    return " ".join((text or "").split())


# The section where the artifact lists what the two roles still disagree on (ARTIFACT_SYSTEM asks
# for "Open questions"; models also say "Open issues", "Unresolved questions", "Points of
# disagreement", "Where they still disagree"...).
_OPEN_SECTION = re.compile(
    r"^(?:open|unresolved|outstanding|remaining|unsettled)\b.*\b(?:questions?|issues?|points?|items?|disagreements?)\b"
    r"|^(?:points? of |remaining |open |unresolved )?disagreements?\b"
    r"|^where (?:they|we|the (?:two )?roles) (?:still )?(?:disagree|differ)",
    re.I,
)
_ATX = re.compile(r"^\s{0,3}(?P<level>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_CODE_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+(?P<text>\S.*)$")
# "None.", "No open questions remain.", "Nothing: they agree on every point." and the like.
_NOTHING_OPEN = re.compile(
    r"^(?:\*|_)*(?:none|nothing|n/?a|no (?:open |unresolved |remaining )?(?:questions?|issues?|disagreements?)"
    r"|there (?:are|were) no\b|they (?:fully )?agree|(?:both roles|the two roles) agree)",
    re.I,
)


def open_questions(markdown: str) -> list[str]:
    """The items under the artifact's open-questions heading: its list items, or where it has no
    list, its paragraphs of prose (one each); none when it says there are none, or when there is
    no such section. Headings inside fenced code are not headings."""
    items: list[str] = []
    paragraphs: list[str] = []
    section_level = 0  # the open section's heading level while inside it
    in_code = ""
    paragraph: list[str] = []

    def close_paragraph() -> None:
        if paragraph:
            paragraphs.append(" ".join(paragraph))
        paragraph.clear()

    for line in (markdown or "").splitlines():
        fence = _CODE_FENCE.match(line)
        if in_code:
            in_code = "" if fence and fence.group(1)[0] == in_code[0] else in_code
            continue
        if fence:
            in_code = fence.group(1)
            continue
        heading = _ATX.match(line)
        if heading:
            close_paragraph()
            level = len(heading.group("level"))
            if section_level and level <= section_level:
                section_level = 0
            title = re.sub(r"[*_`:]+", "", heading.group("title")).strip()
            if not section_level and _OPEN_SECTION.match(title):
                section_level = level
            continue
        if not section_level:
            continue
        item = _ITEM.match(line)
        if item:
            close_paragraph()
            items.append(item.group("text").strip())
        elif not line.strip():
            close_paragraph()
        elif items and not paragraph and line.startswith((" ", "\t")):  # a list item's continuation
            items[-1] = f"{items[-1]} {line.strip()}"
        else:
            paragraph.append(line.strip())
    close_paragraph()
    # With a list, the prose around it introduces it ("Two things remain:"); without one, each
    # paragraph is a question.
    return [text for text in (items or paragraphs) if not _NOTHING_OPEN.match(text)]
