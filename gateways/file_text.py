"""Text out of uploaded files, for every app that reads uploads (a project's documents, a
persona's corpus): a PDF's text layer, and text tidied the same way whatever it came from. Each
app words its own messages; this module raises ``UnreadablePdf`` saying what went wrong. It sits
below every app in the import-linter layers and imports none of them."""

from __future__ import annotations

import io
import logging

from pypdf import PdfReader
from pypdf.errors import PyPdfError

# pypdf logs every oddity of a damaged file; the user gets one clear message instead.
logging.getLogger("pypdf").setLevel(logging.ERROR)

# What pypdf raises on a damaged or hostile file besides its own errors.
_PDF_FAILURES = (PyPdfError, ValueError, KeyError, TypeError, OSError, AttributeError, IndexError, RecursionError)


class UnreadablePdf(Exception):
    """``encrypted``: the PDF wants a password; otherwise ``cause`` names what failed."""

    def __init__(self, *, encrypted: bool = False, cause: str = ""):
        super().__init__("a password-protected PDF" if encrypted else f"not a readable PDF ({cause})")
        self.encrypted = encrypted
        self.cause = cause


def pdf_text(data: bytes) -> str:
    """The text layer of every page, pages parted by a blank line ("" for a scan)."""
    try:
        reader = PdfReader(io.BytesIO(data))
        encrypted = reader.is_encrypted
        if not encrypted:
            return "\n\n".join(page.extract_text() or "" for page in reader.pages)
    except _PDF_FAILURES as exc:
        raise UnreadablePdf(cause=exc.__class__.__name__) from exc
    raise UnreadablePdf(encrypted=True)


def text_tidy(text: str) -> str:
    """Line ends made \\n, trailing spaces cut, runs of blank lines made one, ends stripped, NUL
    characters removed (PostgreSQL cannot store them; a text file or a PDF may still hold some)."""
    text = text.replace("\x00", "")
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    tidy, blank = [], 0
    for line in lines:
        blank = blank + 1 if not line.strip() else 0
        if blank <= 1:
            tidy.append(line)
    return "\n".join(tidy).strip()
