"""The two data lines every prompt writes its data in, whatever its instructions say. A prompt's
instructions are prose and may be worded any way (tests/support/rewording.py rewords them all in
every test run); what the prompt shows of a debate is written in these two forms only, the same
way everywhere, so a reader (a model, a scripted test model: devtools/prompt_reading.py) finds it
whatever the instructions around it say.

1. **A transcript line**, one per message: ``[turn N] Name: text``. N is the message's turn (a
   crux room counts its own), Name its speaker's name (in the two-role modes the role's:
   "Analyst", "Critic", "Architect", "Reviewer").
2. **An item line**, one per thing Faultline holds that the call may refer to by its id:
   ``[ID] text``. The ids: a participant's persona id (``[ada-hardmoney] Ada Hardmoney``, with
   " (you)" after the name of the one a turn is for), a tracked dispute's number (``[12] Ada
   Hardmoney vs Bram Macro: Is gold money?``), a point of the Analyst/Critic ledger (``[P1]
   (agreed) text``), the argument map's disputes, stances and reasons (``[D1]``, ``[S1]``,
   ``[R1]``), a passage of a persona's own writing (``[C1] (source) text``). An item someone
   holds starts its text with their name and a colon, as a transcript line does (``[S1] Ada
   Hardmoney: YES — claim``); an item listed under another (a stance under its dispute) is
   indented two spaces more than it.

A text's further lines follow its first, each indented two spaces more than the line it belongs
to (a blank one as the indent alone), so a line that is not indented never continues a text.
"""

from __future__ import annotations

INDENT = "  "


def said_line(turn: int, name: str, text: str) -> str:
    """A message as a transcript line: ``[turn N] Name: text``."""
    return _with_further_lines(f"[turn {turn}] {name}: ", text, INDENT)


def item_line(item_id: str, text: str, *, depth: int = 0) -> str:
    """A thing held by id as an item line, ``[ID] text``, indented ``depth`` levels (an item
    listed under another)."""
    indent = INDENT * depth
    return _with_further_lines(f"{indent}[{item_id}] ", text, indent + INDENT)


def _with_further_lines(head: str, text: str, indent: str) -> str:
    first, *further = text.split("\n")
    return head + first + "".join(f"\n{indent}{line}" for line in further)
