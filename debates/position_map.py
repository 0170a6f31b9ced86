"""Who agrees and disagrees with whom, as geometry for the SVG position map.

Pure: reads the position ledger folded into a DebateView (LEDGER_UPDATED payloads) and lays the
personas out on a circle in seat order, one edge per pair and relation. A relation recorded by
either side counts; the same point recorded by both sides counts once.

Each name sits outside the circle, beside its node and away from the centre, wrapped on at most two
lines; the drawing's box is what the nodes and names need (``label_box`` measures a name as the
page's font draws it, at most), so no two names overlap and none is cut off, from 2 to 6 personas.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

SIZE = 240  # the circle sits in a SIZE x SIZE square
RADIUS = 80
NODE_RADIUS = 17
BEND = 14  # agreement and disagreement between the same pair bow apart so both stay visible
# The names: 11px text (faultline.css, .map-name), at most this many characters a line, two lines.
FONT_SIZE = 11
LINE_HEIGHT = 13
CHAR_WIDTH = 0.62 * FONT_SIZE  # wider than the average character of a sans-serif face
LINE_CHARS = 16
LABEL_GAP = 5  # between a node's edge and its name
MARGIN = 4


def label_lines(name: str) -> list[str]:
    """A name on at most two lines of LINE_CHARS, broken between words where it can; what does not
    fit ends in an ellipsis."""
    words, lines, line = str(name).split(), [], ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if len(candidate) <= LINE_CHARS or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    lines = lines or [""]
    cut = [text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…" for text in lines[:2]]
    if len(lines) > 2:
        cut[1] = cut[1][: LINE_CHARS - 1].rstrip() + "…"
    return cut


@dataclass
class MapNode:
    persona_id: int
    name: str
    seat: int
    x: float
    y: float
    concessions: int = 0
    shifts: int = 0
    # The name: its lines, where the first line's baseline starts (relative to the node) and its anchor.
    lines: list[str] = field(default_factory=list)
    label_dx: float = 0.0
    label_dy: float = 0.0
    anchor: str = "middle"


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


def _place_label(node: MapNode, centre: float, count: int) -> None:
    """Beside the node, away from the centre: above the top node, below the bottom one, to the
    right or left of those on the sides (lines centred on the node)."""
    node.lines = label_lines(node.name)
    dx, dy = node.x - centre, node.y - centre
    distance = math.hypot(dx, dy)
    ux, uy = (dx / distance, dy / distance) if distance and count > 1 else (0.0, 1.0)
    reach = NODE_RADIUS + LABEL_GAP
    height = LINE_HEIGHT * (len(node.lines) - 1)
    ascent = 0.75 * FONT_SIZE
    if abs(ux) < 0.35:  # top or bottom: centred, above or below
        node.anchor = "middle"
        node.label_dx = 0.0
        node.label_dy = round(reach + ascent if uy > 0 else -reach - height - 0.25 * FONT_SIZE, 1)
    else:  # a side: the lines start at the node's edge and run outwards
        node.anchor = "start" if ux > 0 else "end"
        node.label_dx = round(reach if ux > 0 else -reach, 1)
        node.label_dy = round(uy * NODE_RADIUS - height / 2 + ascent / 2, 1)


def label_box(node: MapNode) -> tuple[float, float, float, float]:
    """The box a node's name takes at most, in the drawing's coordinates: (left, top, right, bottom)."""
    width = max((len(line) for line in node.lines), default=0) * CHAR_WIDTH
    left = node.x + node.label_dx - {"start": 0, "middle": width / 2, "end": width}[node.anchor]
    top = node.y + node.label_dy - 0.8 * FONT_SIZE
    bottom = node.y + node.label_dy + LINE_HEIGHT * (len(node.lines) - 1) + 0.25 * FONT_SIZE
    return (round(left, 1), round(top, 1), round(left + width, 1), round(bottom, 1))


def _view_box(nodes: list[MapNode]) -> str:
    """What the nodes and their names need, and a margin."""
    boxes = [label_box(node) for node in nodes]
    boxes += [(n.x - NODE_RADIUS, n.y - NODE_RADIUS, n.x + NODE_RADIUS, n.y + NODE_RADIUS) for n in nodes]
    if not boxes:
        return f"0 0 {SIZE} {SIZE}"
    left = min(box[0] for box in boxes) - MARGIN
    top = min(box[1] for box in boxes) - MARGIN
    right = max(box[2] for box in boxes) + MARGIN
    bottom = max(box[3] for box in boxes) + MARGIN
    return f"{round(left, 1)} {round(top, 1)} {round(right - left, 1)} {round(bottom - top, 1)}"


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
    for node in nodes:
        _place_label(node, SIZE / 2, len(nodes))
    recorded = False
    by_id = {node.persona_id: node for node in nodes}
    relations: dict[tuple[str, int, int], MapEdge] = {}
    for key, entry in positions.items():
        source = by_id.get(_persona_key(key))
        if source is None or not isinstance(entry, dict):
            continue
        recorded = True
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
    return {
        "view_box": _view_box(nodes),
        "node_radius": NODE_RADIUS,
        "line_height": LINE_HEIGHT,
        "nodes": nodes,
        "edges": edges,
        "recorded": recorded,  # someone's position is in the ledger
    }
