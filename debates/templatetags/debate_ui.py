"""Small display helpers for the debate partials. None of them marks text safe: model text stays
autoescaped wherever it is shown."""

import math

from django import template

from debates.activity import Activity, counts_words, debate_activity
from debates.activity import dialogue_turns as activity_dialogue_turns
from debates.activity import event_label as activity_event_label
from debates.activity import paused_words as activity_paused_words
from debates.activity import phase_label as activity_phase_label
from debates.modes import mode_find
from debates.regime import CRUX_WORDS, SIDE_LABELS, verdict_sentence
from debates.regime import regime_label as verdict_label
from debates.state import COLLABORATION_KINDS, COLLABORATION_ROLES, SUITS, unanswered_notice
from debates.turns import TURN_KINDS

register = template.Library()


@register.filter
def mode_help(key: str) -> str:
    """A registered mode's one-sentence help (the setup page's hint)."""
    spec = mode_find(key)
    return spec.help if spec is not None else ""


@register.filter
def mode_shows(key: str) -> str:
    """What the live page of a registered mode shows (the setup page says it for the mode picked)."""
    spec = mode_find(key)
    return spec.panels.shows if spec is not None else ""


RED_SUITS = {"♥", "♦"}
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
def event_label(kind: str) -> str:
    """What an event is, in words (the replay's step)."""
    return activity_event_label(kind)


@register.filter
def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, str(status or "").replace("_", " "))


@register.filter
def regime_label(regime: str) -> str:
    return verdict_label(regime)


@register.filter
def crux_words(agreement: str) -> str:
    """How one crux of a topic no yes/no question fits came out, in words."""
    return CRUX_WORDS.get(str(agreement or ""), "not read")


# How the other role's revision took a key decision (debates/regime.py's outcomes), in words.
DECISION_WORDS = {
    "agreed": "accepted",
    "disputed": "rejected",
    "undecided": "neither accepted nor rejected",
    "dropped": "withdrawn by its own role",
}


@register.filter
def decision_words(outcome: str) -> str:
    return DECISION_WORDS.get(str(outcome or ""), "not compared")


@register.filter
def phase_label(view) -> str:
    """The phase as a reader would say it, with the aspect or round under way."""
    if view.status == "pending" and not view.phase:
        return "Not started yet"
    return activity_phase_label(view)


@register.filter
def activity(view) -> Activity | None:
    """What the debate is doing now, in words (debates/activity.py)."""
    return debate_activity(view)


@register.filter
def paused_words(view) -> str:
    return activity_paused_words(view)


@register.filter
def verdict(view) -> str:
    """The one verdict sentence (debates/regime.py), "" while the debate has not ended."""
    return verdict_sentence(results=view.results, status=view.status)


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


@register.filter
def dialogue_turns(view) -> int:
    return activity_dialogue_turns(view)


@register.filter
def counts(view) -> str:
    """The debate's size in the status line's words: "18 messages · 12 of 12 turns"."""
    return counts_words(view)


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
    """One stance-over-time chart per persona whose answer was ever recorded, from results["stances"]
    (a blank chart says nothing)."""
    from debates.stance_chart import stance_charts as build

    return [chart for chart in build(stances) if chart["runs"]]


@register.filter
def stance_unrecorded(stances) -> list[str]:
    """The personas whose answer to the question was never recorded (no chart is drawn for them)."""
    from debates.stance_chart import stance_charts as build

    return [chart["name"] for chart in build(stances) if not chart["runs"]]


@register.filter
def stroke_width(points) -> float:
    """Line width for a relation resting on this many points (plus one), capped so it stays legible."""
    return min(int(points), 6) * 1.2


@register.filter
def minutes_words(delta) -> str:
    """A timedelta as "15 minutes", or "8 seconds" under a minute (the login lockout page)."""
    if delta.total_seconds() < 59.5:
        seconds = max(1, math.ceil(delta.total_seconds()))
        return f"{seconds} second{'s' if seconds != 1 else ''}"
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
