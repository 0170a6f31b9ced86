"""Small display helpers for the debate partials. None of them marks text safe: model text stays
autoescaped wherever it is shown."""

from django import template

from debates.modes import mode_find
from debates.regime import SIDE_LABELS
from debates.regime import regime_label as verdict_label
from debates.state import COLLABORATION_KINDS, COLLABORATION_ROLES, SUITS, unanswered_notice
from debates.turns import DIALOGUE_KINDS, TURN_KINDS

register = template.Library()


@register.filter
def mode_help(key: str) -> str:
    """A registered mode's one-sentence help (the setup page's hint)."""
    spec = mode_find(key)
    return spec.help if spec is not None else ""


RED_SUITS = {"♥", "♦"}
PHASE_LABELS = {
    "": "Waiting to start",
    "planning": "Planning the aspects",
    "opening": "Opening statements",
    "openings": "Opening statements",
    "dialogue": "Dialogue",
    "closing": "Closing statements",
    "closings": "Closing statements",
    "results": "Drawing up results",
    "done": "Done",
    "synthesis": "Writing the synthesis",
    "drafting": "Both roles answer the brief",
    "revising": "Each revises on the other's answer",
    "artifact": "Writing the artifact",
}
STATUS_LABELS = {
    "pending": "Waiting for a worker",
    "running": "Live",
    "paused": "Paused",
    "completed": "Completed",
    "failed": "Failed",
    "stopped": "Stopped",
}


@register.filter
def suit_colour(suit: str) -> str:
    """CSS class for a suit symbol: hearts and diamonds are red, spades and clubs black."""
    return "suit-red" if suit in RED_SUITS else "suit-black"


@register.filter
def seat_suit(seat) -> str:
    try:
        return SUITS[int(seat) % len(SUITS)]
    except (TypeError, ValueError):
        return SUITS[0]


@register.filter
def kind_label(kind: str) -> str:
    row = TURN_KINDS.get(str(kind or ""))
    return row.label if row else str(kind or "").replace("_", " ")


@register.filter
def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, str(status or "").replace("_", " "))


@register.filter
def regime_label(regime: str) -> str:
    return verdict_label(regime)


@register.filter
def phase_label(view) -> str:
    """The phase as a reader would say it, with the aspect under discussion when there is one."""
    phase = str(view.phase or "").split(":")[0]
    label = PHASE_LABELS.get(phase, phase.replace("_", " ").capitalize())
    index = view.current_aspect
    if phase == "round" and index is not None:  # Analyst/Critic mode: rounds, not aspects
        return f"Round {index + 1}"
    if index is not None and 0 <= index < len(view.aspects):
        aspect = view.aspects[index]
        if isinstance(aspect, dict) and aspect.get("label"):
            label = f"{label}: {aspect['label']}"
    return label


@register.filter
def as_list(value) -> list:
    """Results come from a JSON column; iterate only real lists (never a string's characters)."""
    return value if isinstance(value, list) else []


@register.filter
def as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


REACTION_LABELS = {"support": "accepts", "oppose": "refuses", "undetermined": "undetermined"}


@register.filter
def reaction_label(value) -> str:
    """How a reaction to a proposal reads (debates/blackboard/conversation.py); unknown: undetermined."""
    return REACTION_LABELS.get(value, "undetermined")


# The orchestrator's turn budget (Debate.max_turns) counts dialogue slots (debates/turns.py) and passes.


@register.filter
def dialogue_turns(view) -> int:
    return sum(
        1
        for item in view.chat
        if item.kind == "pass" or (item.kind == "message" and item.message.kind in DIALOGUE_KINDS)
    )


@register.filter
def positions_by_seat(view) -> list[dict]:
    """The position ledger (LEDGER_UPDATED events) in seat order, each entry with its seat."""
    positions = view.positions if isinstance(getattr(view, "positions", None), dict) else {}
    rows = []
    for persona in view.personas:
        entry = positions.get(persona.id) or positions.get(str(persona.id))
        if isinstance(entry, dict):
            rows.append({**entry, "seat": persona.seat, "name": entry.get("name") or persona.name})
    return rows


@register.filter
def position_map(view) -> dict:
    """Nodes and edges for the SVG position map (who agrees and disagrees with whom)."""
    from debates.position_map import position_map as build

    positions = view.positions if isinstance(getattr(view, "positions", None), dict) else {}
    return build(view.personas, positions)


@register.filter
def side_label(side: str) -> str:
    return SIDE_LABELS.get(side, "not recorded")


@register.filter
def stance_charts(stances) -> list[dict]:
    """One stance-over-time chart per persona, from results["stances"]."""
    from debates.stance_chart import stance_charts as build

    return build(stances)


@register.filter
def stroke_width(points) -> float:
    """Line width for a relation resting on this many points (plus one), capped so it stays legible."""
    return min(int(points), 6) * 1.2


@register.filter
def minutes_words(delta) -> str:
    """A timedelta as "15 minutes" (the login lockout page)."""
    minutes = max(1, round(delta.total_seconds() / 60))
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


@register.filter
def consensus_band(score) -> str:
    """red below 50, yellow below 85 (the consensus threshold), green from there."""
    try:
        value = float(score)
    except (TypeError, ValueError):
        return "red"
    return "green" if value >= 85 else "yellow" if value >= 50 else "red"


LEDGER_GROUPS = (
    ("Agreed", "agreed"),
    ("Contested", "contested"),
    ("Unverifiable", "unverifiable"),
    ("Narrowed (a narrower point replaced them)", "refined"),
    ("Negated (the Analyst now holds the opposite)", "negated"),
    ("Withdrawn by the Analyst", "withdrawn"),
    # Ledgers stored before points were judged by reference (issue 39).
    ("Superseded (their negation was agreed)", "superseded"),
)


@register.filter
def points_by_status(points) -> list[tuple[str, list]]:
    """The ledger's points as titled lists: agreed, contested, unverifiable, then the points the
    Analyst closed (narrowed, negated, withdrawn; superseded in a ledger stored before). A point
    that replaced another, or was replaced, carries the other's text (``supersedes_text``,
    ``superseded_by_text``): the ledger links them by index."""
    points = [point for point in as_list(points) if isinstance(point, dict)]

    def text_at(index) -> str:
        in_range = isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(points)
        return str(points[index].get("text", "")) if in_range else ""

    shown = [
        {
            **point,
            "supersedes_text": text_at(point.get("supersedes")),
            "superseded_by_text": text_at(point.get("superseded_by")),
        }
        for point in points
    ]
    return [(title, [point for point in shown if point.get("status") == status]) for title, status in LEDGER_GROUPS]


@register.filter
def unanswered(message) -> str:
    """The notice shown instead of the text of a message whose speaker said nothing."""
    return unanswered_notice(message)


@register.filter
def is_markdown(kind: str) -> bool:
    """A collaboration's outputs are Markdown documents: once finished they are shown rendered
    (markdown-it, then nh3: projects/markdown.py), never as raw HTML."""
    return kind in (*COLLABORATION_KINDS, "artifact")


@register.filter
def collab_columns(view) -> list[dict]:
    """The two columns of a collaboration: each role's first and revised answers, in order."""
    names = {persona.seat: persona.name for persona in view.personas}
    messages = [item.message for item in view.chat if item.message and item.message.kind in COLLABORATION_KINDS]
    return [
        {"seat": seat, "role": role, "name": names.get(seat, ""), "messages": [m for m in messages if m.seat == seat]}
        for seat, role in enumerate(COLLABORATION_ROLES)
    ]


@register.filter
def collab_artifact(view) -> list:
    return [item.message for item in view.chat if item.message and item.message.kind == "artifact"]
