"""Token budgets for the sections of a persona's context. Pure.

Tokens are estimated at four characters each, the usual rule of thumb for English with Claude's
tokenizer; budgets leave headroom for the error. Sections are filled line by line in priority
order and stop at their budget, so a long debate never grows a persona's context.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def clip(text: str, max_tokens: int) -> str:
    limit = max_tokens * CHARS_PER_TOKEN
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)].rsplit(" ", 1)[0]
    return cut + "…"


@dataclass
class Section:
    title: str
    budget: int  # tokens, title included
    lines: list[str] = field(default_factory=list)

    def add(self, line: str, *, max_line_tokens: int | None = None) -> bool:
        """Add a line if it fits; returns False (and adds nothing) once the budget is spent."""
        if max_line_tokens is not None:
            line = clip(line, max_line_tokens)
        if self.used + estimate_tokens(line) + 1 > self.budget:
            return False
        self.lines.append(line)
        return True

    @property
    def used(self) -> int:
        return estimate_tokens(self.render())

    @property
    def header(self) -> str:
        return f"── {self.title} ──"

    def render(self) -> str:
        return "\n".join([self.header, *self.lines]) if self.lines else ""


def join(sections: list[Section]) -> str:
    return "\n\n".join(text for section in sections if (text := section.render()))
