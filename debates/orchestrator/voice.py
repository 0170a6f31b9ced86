"""Keeping a persona's voice clean while its words stream to the page.

Text is pushed in batches (every FLUSH_SECONDS), never one websocket message per token, and the
last few characters are held back so a forbidden phrase can be caught before any of it is shown.
If one appears the turn is generated once more; if it appears again, it is cut out.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from debates import broadcast
from debates.models import Message
from debates.prompts import PASS_WORD

FLUSH_SECONDS = 0.3


def find_forbidden(text: str, phrases: list[str]) -> list[str]:
    lowered = _fold(text)
    return [phrase for phrase in phrases if phrase.strip() and _fold(phrase) in lowered]


def _fold(text: str) -> str:
    # Curly quotes and case must not let "That’s a great point" slip past "That's a great point".
    return re.sub(r"\s+", " ", text.replace("’", "'").replace("‘", "'")).lower()


def remove_forbidden(text: str, phrases: list[str]) -> str:
    for phrase in phrases:
        if not phrase.strip():
            continue
        words = [re.escape(word) for word in phrase.replace("’", "'").split()]
        pattern = r"\s+".join(words).replace("'", "['’]")
        text = re.sub(pattern + r"[\s,.;:!?-]*", "", text, flags=re.IGNORECASE)
    text = re.sub(r"\s{2,}", " ", text).strip()
    return text[:1].upper() + text[1:] if text else text


def is_pass(text: str) -> bool:
    return re.sub(r"[\W_]+", "", text).upper() == PASS_WORD


def tidy(text: str, speaker_name: str) -> str:
    """Strip a leading "Name:" the model sometimes adds, and surrounding whitespace."""
    text = text.strip()
    prefix = re.compile(rf"^\**{re.escape(speaker_name)}\**\s*:\s*", re.IGNORECASE)
    return prefix.sub("", text).strip()


class StreamingTurn:
    """The on_text callback of one streamed turn.

    The Message row is created lazily, at the first visible text, so a turn answered with a bare
    PASS never shows up in the chat. ``begin`` creates it (and its event); an existing row (a turn
    interrupted by a dead worker) can be passed in to be streamed into again.
    """

    def __init__(self, *, begin: Callable[[], Message], forbidden: list[str], message: Message | None = None,
                 flush_seconds: float = FLUSH_SECONDS) -> None:
        self.begin = begin
        self.forbidden = [p for p in forbidden if p.strip()]
        self.holdback = max([len(PASS_WORD)] + [len(p) for p in self.forbidden]) - 1
        self.message = message
        self.flush_seconds = flush_seconds
        self.text = ""
        self.pushed = ""
        self.tainted = False
        self.last_flush = time.monotonic()
        if self.message is not None and self.message.text:
            self._push("")  # an interrupted turn starts again from nothing

    def reset(self) -> None:
        self.text = ""
        self.tainted = False
        if self.message is not None:
            self._push("")

    def __call__(self, piece: str) -> None:
        self.text += piece
        if time.monotonic() - self.last_flush >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        self.last_flush = time.monotonic()
        if self.tainted:
            return
        if find_forbidden(self.text, self.forbidden):
            self.tainted = True
            return
        visible = self.text[: max(0, len(self.text) - self.holdback)].rstrip()
        if visible and visible != self.pushed and not is_pass(self.text):
            self._push(visible)

    def ensure_message(self) -> Message:
        if self.message is None:
            self.message = self.begin()
        return self.message

    def _push(self, visible: str) -> None:
        message = self.ensure_message()
        Message.objects.filter(pk=message.pk).update(text=visible)
        broadcast.message_progress(debate_id=message.debate_id, message_id=message.id, text=visible)
        self.pushed = visible
