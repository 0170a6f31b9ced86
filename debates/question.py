"""The question a debate's verdict is about (debates/regime.py).

A topic may be a yes/no question ("Should the city charge drivers at peak hours?") or an open one
("What should the city do about traffic?"). Planning (the aspect plan in the discussion modes,
the key decisions in Collaborate) proposes the yes/no question that captures what an open topic
must decide, or says none fits (a plan with several parts, a budget to split); ``question_planned``
checks what it proposed (a model's output is untrusted: an open question is no yes/no question)
and ``debates.services.questions.question_decide`` records it on the debate, with its event, so
the page says "Decided on: …" and every later call (the ledger keeper's side, the personas'
closings) answers that question. Pure, but for reading a debate's two fields.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_QUESTION = 300
# A question that opens with one of these asks for something other than yes or no.
_OPEN_QUESTION = re.compile(r"^\W*(what|how|why|which|who|whom|whose|where|when)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Planned:
    """What the verdict is about: ``question`` ("" when none fits) and whether one fits."""

    question: str
    yes_no: bool


def yes_no_question(text: str | None) -> str:
    """``text`` as a yes/no question (one line, at most MAX_QUESTION characters, ending with "?"),
    or "" when it is none: not a question, or an open one ("What should...?", "How...?")."""
    text = " ".join((text or "").split())
    if not text.endswith("?") or len(text) > MAX_QUESTION or _OPEN_QUESTION.match(text):
        return ""
    return text


def question_planned(*, topic: str, proposed: str | None, none_fits: bool) -> Planned:
    """What planning proposed, checked: a yes/no question is taken as it is; an answer that says
    none fits, or gives no usable question on a topic that is no yes/no question itself, is
    "none fits" (the verdict then reports per crux, never a consensus on an open topic); a yes/no
    topic with no usable proposal is its own question."""
    if question := yes_no_question(proposed):
        return Planned(question, True)
    if none_fits or not yes_no_question(topic):
        return Planned("", False)
    return Planned(yes_no_question(topic), True)


def decided_question(debate) -> str:
    """The question the final answers answer: the one planned; the topic before planning (and in
    debates planned before questions were); "" when no yes/no question fits."""
    if debate.no_yes_no:
        return ""
    return debate.decided_on or debate.topic
