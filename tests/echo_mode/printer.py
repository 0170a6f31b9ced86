"""``rundebate``'s closing lines for an echo debate."""

from __future__ import annotations

from debates.models import Debate


def print_echoes(debate: Debate, write) -> None:
    write(f"Echoes: {(debate.results or {}).get('echoes', 0)}")
    write(f"Status: {debate.status}")
