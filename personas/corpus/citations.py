"""Which of the corpus passages a persona was given did its turn lean on. Plain Python.

A turn is given passages tagged ``[C1]``, ``[C2]``, ... and asked to put the tag after a sentence
that draws on one. Two signals count, and nothing else:

- a tag the turn was actually given (``[C7]`` when only C1-C3 were provided is ignored: an id
  the model made up is never trusted);
- a verbatim run of at least ``QUOTE_WORDS`` consecutive words from a provided passage, for a
  model that quotes without tagging.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")

TAG = re.compile(r"\[\s*C(\d{1,3})\s*\]")
QUOTE_WORDS = 8
_WORD = re.compile(r"[\w’']+")


def citation_tag(index: int) -> str:
    """The tag of the ``index``-th passage given to a turn (0-based): "C1", "C2", ..."""
    return f"C{index + 1}"


def tags_in(text: str) -> list[str]:
    """The ``[Cn]`` tags in ``text``, first mention first, each once."""
    return list(dict.fromkeys(f"C{int(number)}" for number in TAG.findall(text)))


def strip_tags(text: str) -> str:
    """``text`` without its ``[Cn]`` tags (for transcripts other personas read)."""
    return re.sub(r"[ \t]*" + TAG.pattern, "", text)


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def quotes_from(text: str, passage: str, *, min_words: int = QUOTE_WORDS) -> bool:
    """Whether ``text`` repeats at least ``min_words`` consecutive words of ``passage``."""
    said = _words(text)
    if len(said) < min_words:
        return False
    grams = {tuple(said[i : i + min_words]) for i in range(len(said) - min_words + 1)}
    source = _words(passage)
    return any(tuple(source[i : i + min_words]) in grams for i in range(len(source) - min_words + 1))


def citations_in(text: str, provided: Mapping[str, T], *, passage_text=lambda item: str(item)) -> list[T]:
    """The provided items (tag -> item) the turn ``text`` cites: by a tag it was given, or by a
    verbatim run of words from the item's text (``passage_text(item)``). In order of first tag,
    then quoted ones in tag order; each once."""
    cited = [provided[tag] for tag in tags_in(text) if tag in provided]
    for tag, item in provided.items():
        if item not in cited and tag not in tags_in(text) and quotes_from(text, passage_text(item)):
            cited.append(item)
    return cited
