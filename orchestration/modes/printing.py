"""What ``rundebate`` prints after a debate's transcript, shared by the modes' printers.

A mode's spec row (debates/modes.py) names its printer, ``print_<x>(debate, write)``, by dotted
path; a mode with none gets ``print_outcome``. ``write`` prints one line.
"""

from __future__ import annotations

from collections.abc import Callable

from debates.models import Debate
from debates.regime import regime_label

Write = Callable[[str], None]


def print_verdict(results: dict, write: Write) -> None:
    """Where it landed, by its label (debates/regime.py), and what that rests on."""
    if regime := results.get("regime"):
        write(f"\nRegime: {regime_label(regime)}")
    if basis := results.get("regime_basis"):
        write(basis)


def print_outcome(debate: Debate, write: Write) -> None:
    """The verdict, then the status."""
    if debate.results:
        print_verdict(debate.results, write)
    write(f"Status: {debate.status}")
