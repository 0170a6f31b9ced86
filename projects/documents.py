"""Reading an uploaded document as text: Markdown and plain text as they are, PDF through pypdf,
HTML as its visible text. What cannot be read raises DocumentUnreadable with a message fit to
show the user; nothing is saved by this module."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import PurePath

from gateways.file_text import UnreadablePdf, pdf_text, text_tidy

KINDS = {".md": "md", ".markdown": "md", ".txt": "txt", ".text": "txt", ".pdf": "pdf", ".html": "html", ".htm": "html"}
ACCEPTED = ".md, .txt, .pdf or .html"
# Past this many characters a document's text is cut: a debate only ever reads an excerpt.
MAX_TEXT_CHARS = 2_000_000


class DocumentUnreadable(ValueError):
    pass


def document_kind(filename: str) -> str:
    kind = KINDS.get(PurePath(filename).suffix.lower())
    if kind is None:
        raise DocumentUnreadable(f"“{filename}” is not a file Faultline can read: upload a {ACCEPTED} file.")
    return kind


def _decoded(data: bytes, filename: str) -> str:
    if b"\x00" in data[:8192]:
        raise DocumentUnreadable(f"“{filename}” looks like a binary file, not text.")
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DocumentUnreadable(f"“{filename}” is not text Faultline can decode (try saving it as UTF-8).")


class _VisibleText(HTMLParser):
    """The text a reader would see: no scripts, styles or markup, block elements on new lines."""

    HIDDEN = {"script", "style", "template", "noscript", "head", "svg"}
    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "pre"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self.hidden:
            self.hidden -= 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def _html_text(html: str) -> str:
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _pdf_text(data: bytes, filename: str) -> str:
    try:
        return pdf_text(data)
    except UnreadablePdf as exc:
        if exc.encrypted:
            raise DocumentUnreadable(f"“{filename}” is a password-protected PDF: upload an unprotected copy.") from exc
        raise DocumentUnreadable(f"“{filename}” is not a PDF Faultline can read ({exc.cause}).") from exc


def document_text(*, filename: str, data: bytes) -> tuple[str, str]:
    """(kind, text) of an uploaded file; DocumentUnreadable when there is nothing to read in it."""
    kind = document_kind(filename)
    if kind == "pdf":
        text = _pdf_text(data, filename)
    else:
        text = _decoded(data, filename)
        if kind == "html":
            text = _html_text(text)
    text = text_tidy(text)[:MAX_TEXT_CHARS]
    if not text:
        what = "no text layer (a scanned PDF?)" if kind == "pdf" else "no text"
        raise DocumentUnreadable(f"“{filename}” has {what}: there is nothing in it a debate could read.")
    return kind, text
