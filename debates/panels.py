"""Placeholder until the panels branch lands (issue 24): which shared panels a mode draws."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Panels:
    pass
