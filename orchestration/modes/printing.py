"""What ``rundebate`` prints after a debate's transcript, shared by the modes' printers.

A mode's spec row (debates/modes.py) names its printer, ``print_<x>(debate, write)``, by dotted
path; a mode with none gets ``print_outcome``. ``write`` prints one line.
"""

from __future__ import annotations

from collections.abc import Callable

from debates.models import Debate
from debates.regime import CRUX_WORDS

Write = Callable[[str], None]


def print_verdict(results: dict, write: Write) -> None:
    """What the verdict is about and what it rests on. The verdict itself is the one sentence
    ``rundebate`` prints before this ("Where it landed: ...", debates/regime.py verdict_sentence):
    never a label of its own here, so the terminal says what the page says."""
    if question := results.get("decided_on"):
        write(f"Decided on: {question}")
    for crux in results.get("per_crux") or []:
        write(f"  PER CRUX: {crux.get('question', '')} — {CRUX_WORDS.get(crux.get('agreement'), 'not read')}")
    if basis := results.get("regime_basis"):
        write(basis)


def print_outcome(debate: Debate, write: Write) -> None:
    """The verdict, then the status."""
    if debate.results:
        print_verdict(debate.results, write)
    write(f"Status: {debate.status}")
