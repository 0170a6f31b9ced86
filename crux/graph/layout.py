"""Where each node of the argument map is drawn: a simple deterministic layout for a server-rendered
SVG. Pure.

Disputes are stacked top to bottom. Under each dispute its stances stand in a row, YES first;
under each stance, its reasons in a column: supporting ones tied to the stance's left edge, attacks
drawn up its right edge with an arrow. Opposite stances are joined by an arc (they attack each
other). Text is wrapped here and escaped by the template; coordinates are plain numbers.
"""

from __future__ import annotations

import textwrap

from .dispute_graph import DisputeGraph
from .nodes import ATTACKS, YES

WIDTH = 360
PAD = 6
DISPUTE_H = 30
STANCE_H = 46
REASON_H = 30
GAP = 8
ARC_SPACE = 18
LINE_H = 10
CHAR_W = 5.0  # average glyph width at the drawing's font size


def _lines(text: str, width: float, max_lines: int) -> list[str]:
    chars = max(6, int((width - 8) / CHAR_W))
    lines = textwrap.wrap(" ".join(str(text).split()), chars) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: chars - 1].rstrip() + "…"
    return lines


def _n(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def graph_layout(graph_data: dict | None, labels: dict[str, str] | None = None) -> dict:
    """{"width", "height", "nodes": [...], "edges": [...]} for a DisputeGraph.to_dict()."""
    graph = DisputeGraph.from_dict(graph_data or {})
    labels = labels or {}
    nodes: list[dict] = []
    edges: list[dict] = []
    y = PAD
    for dispute in graph.disputes.values():
        stances = sorted(graph.stances_of(dispute.id), key=lambda s: s.side != YES)
        is_open = any(labels.get(s.id, "UNDEC") == "UNDEC" for s in stances)
        width = WIDTH - 2 * PAD
        nodes.append(
            {
                "id": dispute.id,
                "kind": "dispute",
                "x": PAD,
                "y": y,
                "w": width,
                "h": DISPUTE_H,
                "state": "open" if is_open else "decided",
                "title": f"{dispute.id}: {dispute.question}",
                "lines": _lines(f"{dispute.id} · {dispute.question}", width, 2),
            }
        )
        stance_y = y + DISPUTE_H + ARC_SPACE
        column = width / max(1, len(stances))
        bottom = stance_y + STANCE_H
        centres = {}
        for index, stance in enumerate(stances):
            x, w = PAD + index * column + 2, column - 4
            centres[stance.id] = x + w / 2
            nodes.append(
                {
                    "id": stance.id,
                    "kind": "stance",
                    "x": x,
                    "y": stance_y,
                    "w": w,
                    "h": STANCE_H,
                    "state": labels.get(stance.id, "UNDEC").lower(),
                    "side": stance.side,
                    "title": f"{stance.id} {stance.side} — {stance.holder}: {stance.claim}",
                    # The first line is bold, so it gets less room per character.
                    "lines": _lines(f"{stance.side} · {stance.holder}", w * 0.92, 1) + _lines(stance.claim, w, 2),
                }
            )
            reason_y = stance_y + STANCE_H + GAP
            for reason in graph.reasons_of(stance.id):
                rx, rw = x + 8, w - 16
                mid = reason_y + REASON_H / 2
                attack = reason.relation == ATTACKS
                nodes.append(
                    {
                        "id": reason.id,
                        "kind": "reason",
                        "x": rx,
                        "y": reason_y,
                        "w": rw,
                        "h": REASON_H,
                        "state": labels.get(reason.id, "UNDEC").lower(),
                        "relation": reason.relation,
                        "title": f"{reason.id} {reason.relation} {stance.id} — {reason.holder}: {reason.text}",
                        "lines": _lines(f"{'−' if attack else '+'} {reason.text}", rw, 2),
                    }
                )
                rail = x + w - 4 if attack else x + 4
                start = rx + rw if attack else rx
                edges.append(
                    {
                        "kind": "attack" if attack else "support",
                        "d": f"M{_n(start)} {_n(mid)} H{_n(rail)} V{_n(stance_y + STANCE_H)}",
                    }
                )
                reason_y += REASON_H + GAP
            bottom = max(bottom, reason_y - GAP)
        for yes in (s for s in stances if s.side == YES):
            for no in (s for s in stances if s.side != YES):
                left, right = centres[yes.id], centres[no.id]
                lift = min(ARC_SPACE - 2, 6 + abs(right - left) / 20)
                edges.append(
                    {
                        "kind": "conflict",
                        "d": f"M{_n(left)} {_n(stance_y)} Q{_n((left + right) / 2)} {_n(stance_y - lift)} "
                        f"{_n(right)} {_n(stance_y)}",
                    }
                )
        y = bottom + 2 * GAP
    for node in nodes:
        node["tx"], node["ty"] = node["x"] + 4, node["y"] + LINE_H + 1
        for key in ("x", "y", "w", "h", "tx", "ty"):
            node[key] = _n(node[key])
    return {"width": WIDTH, "height": _n(max(y, 2 * PAD)), "line_height": LINE_H, "nodes": nodes, "edges": edges}
