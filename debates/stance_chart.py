"""Geometry for the stance-over-time charts: one small SVG per persona, its answer to the debate's
question (YES at the top, NUANCED in the middle, NO at the bottom) after each main-channel message.
Pure. Reads results["stances"] (orchestration/results.py), stored JSON, so it checks every shape;
the template escapes every name.
"""

from __future__ import annotations

WIDTH, HEIGHT = 260, 66
LEFT, RIGHT, TOP, BOTTOM = 62, 8, 8, 10
LEVELS = {"YES": 0, "NUANCED": 1, "NO": 2}
LABELS = [("YES", "yes"), ("NUANCED", "it depends"), ("NO", "no")]


def _y(level: int) -> float:
    return round(TOP + level * (HEIGHT - TOP - BOTTOM) / 2, 1)


def stance_charts(stances) -> list[dict]:
    """One chart per persona: runs of the line where their side is recorded (a gap where not yet),
    dots where it changed, and their final side."""
    if not isinstance(stances, dict):
        return []
    personas = stances.get("personas") if isinstance(stances.get("personas"), list) else []
    steps = [step for step in stances.get("steps") or [] if isinstance(step, list)]
    if not personas or not steps:
        return []
    span = max(len(steps) - 1, 1)

    def x(index: int) -> float:
        return round(LEFT + index * (WIDTH - LEFT - RIGHT) / span, 1)

    charts = []
    for column, persona in enumerate(personas):
        if not isinstance(persona, dict):
            continue
        sides = [step[column] if column < len(step) and step[column] in LEVELS else "" for step in steps]
        runs, run, changes, previous = [], [], [], ""
        for index, side in enumerate(sides):
            if not side:
                if run:
                    runs.append(" ".join(run))
                run = []
                continue
            if previous and side != previous:
                run.append(f"{x(index)},{_y(LEVELS[previous])}")  # a step, not a slope
                changes.append({"x": x(index), "y": _y(LEVELS[side]), "side": side, "step": index + 1})
            run.append(f"{x(index)},{_y(LEVELS[side])}")
            previous = side
        if run:
            runs.append(" ".join(run))
        charts.append(
            {
                "name": str(persona.get("name", "")),
                "seat": persona.get("seat", column),
                "runs": [r if " " in r else f"{r} {r}" for r in runs],
                "changes": changes,
                "final": previous,
                "steps": len(steps),
                "frame": chart_frame(),
            }
        )
    return charts


def chart_frame() -> dict:
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "left": LEFT,
        "right": WIDTH - RIGHT,
        "levels": [{"side": side, "label": label, "y": _y(LEVELS[side])} for side, label in LABELS],
    }
