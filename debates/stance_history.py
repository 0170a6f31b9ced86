"""How each persona's answer to the debate's question moved, read from the event log. Pure.

A step is one main-channel message finished; at each step every persona's side is the last one
they *said* up to that message, room messages included (LEDGER_UPDATED events), or "" while none
is. The results chart draws it, and the evaluation harness measures disagreement entropy over it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

SIDES = ("YES", "NO", "NUANCED")


def stance_history(events: Iterable[tuple[str, dict]], persona_ids: list[int]) -> list[dict[int, str]]:
    """events: (kind, payload) in sequence order. One {persona_id: side} per main-channel message.

    The ledger folds messages late, a window at a time, and a crux room's window on its own lane:
    a room statement may be folded several main-channel messages after it was said, after newer
    statements of its speaker. So a ledger update that names the message it folded
    (``message_id``) counts from where that message finished, however late it was written: a
    room message at the step of the next main-channel message, before it. Its side is the one
    the message itself gave (``side_said``; logs written before it was recorded: the ledger's
    side then), and an update written for someone other than the message's speaker (a challenge
    raised to them) moves nothing: they said nothing. One that names no message (older logs)
    counts from where it lands."""
    main_channel: set[int] = set()
    speaker_of: dict[int, int] = {}  # message id -> its speaker
    step_of: dict[int, int] = {}  # main-channel message id -> its step
    finished: dict[int, tuple[int, int]] = {}  # message id -> (its step, its place in the log)
    sides_from: list[tuple[int, int, int, int, str]] = []  # (from step, said at, written at, persona, side)
    for order, (kind, payload) in enumerate(events):
        message_id = payload.get("message_id")
        if kind == "message_started" and message_id is not None:
            speaker_of[message_id] = payload.get("persona_id")
            if payload.get("room_id") is None:
                main_channel.add(message_id)
        elif kind == "ledger_updated" and payload.get("persona_id") in persona_ids:
            persona_id = payload["persona_id"]
            side = payload["side_said"] if "side_said" in payload else payload.get("side")
            if speaker_of.get(message_id) not in (None, persona_id) or side not in SIDES:
                continue
            at, said = finished.get(message_id, (len(step_of), order))
            sides_from.append((at, said, order, persona_id, side))
        elif kind == "message_completed" and message_id is not None and message_id not in finished:
            if message_id in main_channel:
                step_of[message_id] = len(step_of)
            finished[message_id] = (step_of.get(message_id, len(step_of)), order)
    steps = [dict.fromkeys(persona_ids, "") for _ in step_of]
    for at, _, _, persona_id, side in sorted(sides_from):  # as said, then as written
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
