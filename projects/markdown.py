"""Notes, artifacts and Markdown documents are Markdown written by owners and by models:
rendered with markdown-it-py (raw HTML off), then sanitised with nh3 (an allow-list of tags and
attributes, safe link schemes only), so no script, event handler or javascript: link survives,
whatever the text holds.

Rendering has a budget, so that no stored text can hold a page (and the server's CPU) for long:
markdown-it-py is pure Python, 2 to 11 µs a parsing step on text made of `[`, `*_` or `&#` (a
2.4 MB note of `[` took 47 s), and nh3's cost grows faster than the text where it holds many
characters it must escape. A text longer than MARKDOWN_MAX_CHARS, with more than
MARKDOWN_MAX_ESCAPES such characters, or whose parsing takes more than MARKDOWN_STEPS steps (a
line of the block parser, a position of the inline parser, a run of emphasis pairs: counted, so
the verdict is the same on a busy machine as on a quiet one) is shown as plain text with a notice
instead; MARKDOWN_CPU_SECONDS of this thread's CPU is the last resort for what the steps do not
see. benchmarks/markdown_budget.py measures it. Real Markdown takes about 24,000 steps (0.1 s)
for 200 KB.
"""

from __future__ import annotations

import time
from html import escape

import nh3
from markdown_it import MarkdownIt

# What a note, an artifact or a Markdown document may hold (the forms and services refuse more):
# far above a long debate's saved results (tens of kilobytes).
MARKDOWN_MAX_CHARS = 400_000
# Characters markdown-it escapes (&, <, >) that nh3 must read back: its cost grows with the
# square of their number in one run of text (5 s for 800,000), a real note has a few thousand.
MARKDOWN_MAX_ESCAPES = 50_000
# A line of the block parser weighs 4 (its tokens, then their rendering), a run of pairs 2, a
# position of the inline parser 1: each about as long as another, 2 to 7 µs (the benchmark's).
MARKDOWN_STEPS = 60_000
MARKDOWN_CPU_SECONDS = 0.8
PLAIN_NOTICE = "This text is too long or too intricate to format quickly, so it is shown as plain text."

ALLOWED_TAGS = {
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}


class _OverBudget(Exception):
    pass


def _step(env: dict, weight: int = 1) -> None:
    env["steps"] += weight
    if env["steps"] > MARKDOWN_STEPS or (env["steps"] % 256 < weight and time.thread_time() > env["deadline"]):
        raise _OverBudget


def _check_block(state, start_line, end_line, silent) -> bool:
    _step(state.env, 4)
    return False  # never matches: the next rule reads the line


def _check_inline(state, silent) -> bool:
    _step(state.env)
    return False


def _check_pairs(state) -> None:
    _step(state.env, 2)


def _renderer() -> MarkdownIt:
    """CommonMark with tables, each parser's rule chain opening with a step counted (a rule that
    never matches): the block parser's once a line, the inline parser's once a position, the
    pairs' once a run of text."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    # Also in the chains a paragraph, a list or a quote asks, line by line, whether it has ended.
    chains = sorted({chain for rule in md.block.ruler.__rules__ for chain in rule.alt})
    md.block.ruler.before(md.block.ruler.get_active_rules()[0], "budget", _check_block, {"alt": chains})
    md.inline.ruler.before(md.inline.ruler.get_active_rules()[0], "budget", _check_inline)
    md.inline.ruler2.before(md.inline.ruler2.get_active_rules()[0], "budget", _check_pairs)
    return md


_markdown = _renderer()


def _escapes(text: str) -> int:
    return text.count("&") + text.count("<") + text.count(">")


def markdown_html(text: str) -> str | None:
    """Safe HTML for Markdown, or None when it is past the budget (too long, too many characters
    to escape, or too many steps to parse)."""
    text = text or ""
    if len(text) > MARKDOWN_MAX_CHARS or _escapes(text) > MARKDOWN_MAX_ESCAPES:
        return None
    try:
        html = _markdown.render(text, {"steps": 0, "deadline": time.thread_time() + MARKDOWN_CPU_SECONDS})
    except (_OverBudget, RecursionError):
        return None
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )


def render_markdown(text: str) -> str:
    """Safe HTML for a note's Markdown; past the budget, the text as it is, escaped, under a
    notice saying why."""
    html = markdown_html(text)
    if html is not None:
        return html
    return f'<p class="markdown-notice">{PLAIN_NOTICE}</p><pre class="markdown-plain">{escape(text or "")}</pre>'
