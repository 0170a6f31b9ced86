"""Notes, artifacts and Markdown documents are Markdown written by owners and by models:
rendered with markdown-it-py (raw HTML off), then sanitised with nh3 (an allow-list of tags and
attributes, safe link schemes only), so no script, event handler or javascript: link survives,
whatever the text holds."""

from __future__ import annotations

import nh3
from markdown_it import MarkdownIt

_renderer = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")

ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}


def render_markdown(text: str) -> str:
    """Safe HTML for a note's Markdown."""
    html = _renderer.render(text or "")
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
