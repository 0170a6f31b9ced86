"""How each persona's answer to the debate's question moved, read from the event log. Pure.

A step is one main-channel message finished; at each step every persona's side is the last one the
position ledger recorded for them up to that message (LEDGER_UPDATED events, room messages
included), or "" while none is. The results chart draws it, and the evaluation harness measures disagreement entropy
over it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

SIDES = ("YES", "NO", "NUANCED")


def stance_history(events: Iterable[tuple[str, dict]], persona_ids: list[int]) -> list[dict[int, str]]:
    """events: (kind, payload) in sequence order. One {persona_id: side} per main-channel message.

    A ledger update that names the message it folded (``message_id``) counts from that message's
    step on, however late it was written: the ledger folds messages a window at a time, so an
    update may land several messages after the message it reads. One without (a room message's
    fold counts from the step it was written at; older logs) counts from where it lands."""
    main_channel: set[int] = set()
    step_of: dict[int, int] = {}  # main-channel message id -> its step
    sides_from: list[tuple[int, int, int, str]] = []  # (from step, order, persona, side)
    for order, (kind, payload) in enumerate(events):
        if kind == "message_started" and payload.get("room_id") is None:
            main_channel.add(payload.get("message_id"))
        elif kind == "ledger_updated" and payload.get("persona_id") in persona_ids:
            if payload.get("side") in SIDES:
                at = step_of.get(payload.get("message_id"), len(step_of))
                sides_from.append((at, order, payload["persona_id"], payload["side"]))
        elif kind == "message_completed" and payload.get("message_id") in main_channel:
            step_of.setdefault(payload["message_id"], len(step_of))
    steps = [dict.fromkeys(persona_ids, "") for _ in step_of]
    for at, _, persona_id, side in sorted(sides_from):  # by step, then as written
        for step in steps[at:]:
            step[persona_id] = side
    return steps


def entropy(sides: Iterable[str]) -> float | None:
    """Shannon entropy (bits) of the recorded sides: 0 when everyone says the same, 1 for an even
    YES/NO split, log2(3) at most. None when no side is recorded yet."""
    counts = Counter(side for side in sides if side in SIDES)
    total = sum(counts.values())
    if not total:
        return None
    return round(-sum(n / total * math.log2(n / total) for n in counts.values()), 3) + 0.0


def entropy_by_round(steps: list[dict[int, str]], round_size: int) -> list[float | None]:
    """Entropy at the end of each round of ``round_size`` main-channel messages (and of the last,
    shorter one)."""
    ends = list(range(round_size - 1, len(steps), round_size))
    if steps and (not ends or ends[-1] != len(steps) - 1):
        ends.append(len(steps) - 1)
    return [entropy(steps[end].values()) for end in ends]
