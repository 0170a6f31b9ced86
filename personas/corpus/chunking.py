"""Cutting a document's text into chunks and sentences, keeping character offsets.

Plain Python, no Django. A chunk is a ``Span`` of the text: ``text[span.start:span.end]`` is its
content, so every chunk and every sentence is, by construction, an exact substring of the corpus.
Paragraphs (blank-line separated) are kept whole when they fit; small ones are joined up to
``target`` characters; a paragraph longer than ``limit`` is cut between sentences, and a
sentence longer than ``limit`` between words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

TARGET_CHARS = 900
LIMIT_CHARS = 1500

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# A sentence ends at . ! ? (with closing quotes or brackets) followed by whitespace.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(?=\s)")


@dataclass(frozen=True)
class Span:
    start: int
    end: int

    def of(self, text: str) -> str:
        return text[self.start : self.end]


def _stripped(text: str, start: int, end: int) -> Span | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end) if end > start else None


def paragraphs(text: str) -> list[Span]:
    spans, start = [], 0
    for match in _PARAGRAPH_BREAK.finditer(text):
        if span := _stripped(text, start, match.start()):
            spans.append(span)
        start = match.end()
    if span := _stripped(text, start, len(text)):
        spans.append(span)
    return spans


def sentences(text: str, within: Span | None = None) -> list[Span]:
    """The sentences of ``text`` (or of one span of it), as spans of the whole text."""
    within = within or Span(0, len(text))
    spans, start = [], within.start
    for match in _SENTENCE_END.finditer(text, within.start, within.end):
        if span := _stripped(text, start, match.end()):
            spans.append(span)
        start = match.end()
    if span := _stripped(text, start, within.end):
        spans.append(span)
    return spans


def _word_cuts(text: str, span: Span, limit: int) -> list[Span]:
    pieces, start = [], span.start
    while span.end - start > limit:
        cut = text.rfind(" ", start + 1, start + limit)
        if cut <= start:
            cut = start + limit
        if piece := _stripped(text, start, cut):
            pieces.append(piece)
        start = cut
    if piece := _stripped(text, start, span.end):
        pieces.append(piece)
    return pieces


def _pieces(text: str, paragraph: Span, limit: int) -> list[Span]:
    """A paragraph as pieces no longer than ``limit``: itself, else its sentences, else words."""
    if paragraph.end - paragraph.start <= limit:
        return [paragraph]
    pieces = []
    for sentence in sentences(text, paragraph):
        pieces += [sentence] if sentence.end - sentence.start <= limit else _word_cuts(text, sentence, limit)
    return pieces


def chunk_spans(text: str, *, target: int = TARGET_CHARS, limit: int = LIMIT_CHARS) -> list[Span]:
    """Chunks of ``text``: whole paragraphs joined up to ``target`` chars, none over ``limit``.
    Pieces of one long paragraph are joined the same way, so a chunk never spans a cut mid-word
    unless a single sentence is longer than ``limit``."""
    chunks: list[Span] = []
    current: Span | None = None
    for paragraph in paragraphs(text):
        for piece in _pieces(text, paragraph, limit):
            if current is not None and piece.end - current.start <= target:
                current = Span(current.start, piece.end)
            else:
                if current is not None:
                    chunks.append(current)
                current = piece
    if current is not None:
        chunks.append(current)
    return chunks
