"""What a structured answer refers to, checked against what its call was shown. Pure Python.

A call that may refer to something Faultline holds is shown it as an item line, ``[ID] text``
(prompt_lines.py): a participant as ``[persona-id] Name``, a proposal as ``[X3] Name: text``, a
tracked dispute as ``[12] ...``. The answer names it back by that id. Model output is untrusted,
so every id and name that comes back is checked here before anything is stored:

- a **participant** is the one whose persona id the answer gives (``ada-hardmoney``, with or
  without its brackets, any case); failing that, the one whose name it gives exactly; failing
  that, the one whose name it gives once case, spacing, accents, quotes, a trailing " (you)" and a
  leading "The" are set aside (``normalised``). Nothing looser: "Ada" is not "Ada Hardmoney",
  "Shoul d" and "Trade r" are nobody. Two participants whose names read alike are both refused;
- an **item** is one of the ids the call was shown (``[X3]``, ``x3`` and ``X3`` alike).

What matches nothing is dropped and logged (``what`` says where it came from), never stored, so
no ledger ever shows a name that is not a participant's.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)

_YOU = re.compile(r"\s*\(you\)\s*$", re.IGNORECASE)
_EDGES = re.compile(r"^[\s\"'“”‘’`\[\](){}<>*_.,:;!?-]+|[\s\"'“”‘’`\[\](){}<>*_.,:;!?-]+$")
_THE = re.compile(r"^the\s+", re.IGNORECASE)


def normalised(text: str | None) -> str:
    """A name as the fallback compares it: NFKC, accents and case folded, quotes, brackets and
    edge punctuation dropped, a trailing " (you)" and a leading "The" set aside, spaces collapsed."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", str(text or "")))
    text = "".join(char for char in text if not unicodedata.combining(char))
    text = _EDGES.sub("", _YOU.sub("", text))
    return " ".join(_THE.sub("", text).casefold().split())


def _bare_id(text: str | None) -> str:
    return str(text or "").strip().strip("[]").strip().casefold()


@dataclass(frozen=True)
class Participants:
    """The participants a call was shown: for each, the key the caller stores (a persona's pk),
    its persona id (the item line's id) and its name, in seat order."""

    seats: tuple[tuple[int, str, str], ...]  # (key, persona id, name)
    _by_id: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, int] = field(init=False, repr=False, compare=False)
    _by_normalised: dict[str, int | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_normalised: dict[str, int | None] = {}
        for key, _, name in self.seats:
            folded = normalised(name)
            by_normalised[folded] = None if folded in by_normalised else key  # two alike: neither
        object.__setattr__(self, "_by_id", {_bare_id(handle): key for key, handle, _ in self.seats})
        object.__setattr__(self, "_by_name", {name: key for key, _, name in self.seats})
        object.__setattr__(self, "_by_normalised", by_normalised)

    @classmethod
    def of(cls, seats: Iterable[tuple[int, str, str]]) -> Participants:
        return cls(tuple(seats))

    @property
    def names(self) -> dict[int, str]:
        return {key: name for key, _, name in self.seats}

    def handle(self, key: int) -> str:
        return next(handle for seat_key, handle, _ in self.seats if seat_key == key)

    def key(self, answer: str | None, *, what: str = "") -> int | None:
        """The key of the participant ``answer`` names (by id, else by name; see the module), or
        None, logged, when it names nobody who takes part."""
        if answer is None or not str(answer).strip():
            return None
        found = self._by_id.get(_bare_id(answer))
        if found is None:
            found = self._by_name.get(str(answer).strip())
        if found is None:
            found = self._by_normalised.get(normalised(answer))
        if found is None:
            logger.info("%s named %r, who is not a participant: dropped", what or "An answer", answer)
        return found

    def name(self, answer: str | None, *, what: str = "") -> str | None:
        """The participant's own name for what ``answer`` names, or None (logged)."""
        found = self.key(answer, what=what)
        return None if found is None else self.names[found]


def item_id(answer: str | int | None, shown: Iterable[str], *, what: str = "") -> str | None:
    """The id, among the ``shown`` ones, that ``answer`` gives (``[X3]``, ``x3``, ``X3``), or None,
    logged, when it gives none of them."""
    if answer is None or not str(answer).strip():
        return None
    wanted = _bare_id(str(answer))
    found = next((item for item in shown if _bare_id(item) == wanted), None)
    if found is None:
        logger.info("%s cited %r, an id it was not shown: dropped", what or "An answer", answer)
    return found
