"""Who agrees and disagrees with whom, as geometry for the SVG position map.

Pure: reads the position ledger folded into a DebateView (LEDGER_UPDATED payloads) and lays the
personas out on a circle in seat order, one edge per pair and relation. A relation recorded by
either side counts; the same point recorded by both sides counts once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SIZE = 240  # the circle sits in a SIZE x SIZE square
RADIUS = 80
NODE_RADIUS = 17
LABEL_MARGIN = 50
BEND = 14  # agreement and disagreement between the same pair bow apart so both stay visible


@dataclass
class MapNode:
    persona_id: int
    name: str
    seat: int
    x: float
    y: float
    concessions: int = 0
    shifts: int = 0


@dataclass
class MapEdge:
    kind: str  # "agree" | "disagree"
    a: MapNode
    b: MapNode
    points: list[str] = field(default_factory=list)  # what they (dis)agree on
    strong: bool = False
    path: str = ""

    @property
    def weight(self) -> int:
        return len(self.points)


def _circle(count: int) -> list[tuple[float, float]]:
    centre = SIZE / 2
    if count == 1:
        return [(centre, centre)]
    # Start at the top and go clockwise, like seats round a table.
    return [
        (
            round(centre + RADIUS * math.sin(2 * math.pi * i / count), 1),
            round(centre - RADIUS * math.cos(2 * math.pi * i / count), 1),
        )
        for i in range(count)
    ]


def _curve(a: MapNode, b: MapNode, bend: float) -> str:
    mid_x, mid_y = (a.x + b.x) / 2, (a.y + b.y) / 2
    dx, dy = b.x - a.x, b.y - a.y
    length = math.hypot(dx, dy) or 1
    control_x, control_y = mid_x - dy / length * bend, mid_y + dx / length * bend
    return f"M {a.x} {a.y} Q {round(control_x, 1)} {round(control_y, 1)} {b.x} {b.y}"


def _persona_key(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def position_map(personas, positions: dict) -> dict:
    """personas: PersonaView-likes (id, name, seat); positions: persona id -> ledger payload."""
    nodes = [MapNode(p.id, p.name, p.seat, x, y) for p, (x, y) in zip(personas, _circle(len(personas)), strict=True)]
    by_id = {node.persona_id: node for node in nodes}
    relations: dict[tuple[str, int, int], MapEdge] = {}
    for key, entry in positions.items():
        source = by_id.get(_persona_key(key))
        if source is None or not isinstance(entry, dict):
            continue
        source.concessions = len(entry.get("concessions") or [])
        source.shifts = len(entry.get("shifts") or [])
        for kind, items in (("agree", entry.get("agreements")), ("disagree", entry.get("disagreements"))):
            for item in items or []:
                target = by_id.get(_persona_key(item.get("with"))) if isinstance(item, dict) else None
                if target is None or target is source:
                    continue
                a, b = sorted((source, target), key=lambda node: node.seat)
                edge = relations.setdefault((kind, a.persona_id, b.persona_id), MapEdge(kind, a, b))
                point = str(item.get("on") or "").strip()
                if point and point.lower() not in {p.lower() for p in edge.points}:
                    edge.points.append(point)
                edge.strong = edge.strong or item.get("intensity") == "strong"
    edges = sorted(relations.values(), key=lambda e: (e.a.seat, e.b.seat, e.kind))
    for edge in edges:
        both = ("agree" if edge.kind == "disagree" else "disagree", edge.a.persona_id, edge.b.persona_id) in relations
        edge.path = _curve(edge.a, edge.b, (BEND if edge.kind == "agree" else -BEND) if both else 0)
    # Room either side for the names under the nodes.
    view_box = f"-{LABEL_MARGIN} 0 {SIZE + 2 * LABEL_MARGIN} {SIZE}"
    return {"view_box": view_box, "node_radius": NODE_RADIUS, "nodes": nodes, "edges": edges}
