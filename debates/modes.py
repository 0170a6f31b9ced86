"""The mode table: one spec row per mode, the one place the rest of the house reads a mode from.

A mode's behaviour lives in its own folder (orchestration/modes/<name>/); what the setup form, the
lifecycle's hand rule, the pages, the CLI and the model gateway need to know about it is its row
here. The record layer may not import orchestration, so the row names the mode's behaviour (its
Mode class) and its CLI printer by dotted path; orchestration resolves them.

    mode_register(ModeSpec(key="echo", label="Echo", ...))  # a new mode: one row
    mode_spec("graph").label
    modes_available()  # in the order registered: the setup page lists them so

Registering a row registers its model roles with the gateway (gateways/llm/roles.py), so a mode's
own roles need no entry in the settings or in ``gateways.llm.types.Role``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from debates.models import Message
from debates.panels import Panels
from gateways.llm.roles import model_role_register, model_role_unregister
from personas.services.roles import RoleSeat

# Any mode's hand lies within these; a mode may ask for fewer choices (ModeSpec.hand).
MIN_HAND, MAX_HAND = 2, 6
DEFAULT_MODE = "dialogue"

LOCAL_MODEL = "SmolLM2-135M-Instruct"  # the offline default for every role


@dataclass(frozen=True)
class ModeSpec:
    key: str  # Debate.mode's value, and rundebate --mode (with "-" for "_")
    label: str  # the setup page's choice, the exports' "Mode:"
    help: str  # what the mode does and when to pick it, in a sentence or two (the setup page shows it)
    behaviour: str  # dotted path of its orchestration Mode class
    # Dotted path of its CLI printer, ``print_<x>(debate, write)`` after the transcript; "" for the
    # shared one (orchestration/modes/printing.py: the verdict and the status).
    printer: str = ""
    hand: tuple[int, int] = (MIN_HAND, MAX_HAND)  # fewest and most personas
    hand_error: str = ""  # said when a hand is outside ``hand`` (but inside MIN_HAND..MAX_HAND)
    # Fixed-seat modes: seat 0, 1, ... and the plain role persona that plays it when no hand is given.
    seats: tuple[RoleSeat, ...] = ()
    # The mode's own model roles, each with its default model per provider ("anthropic", "local").
    model_roles: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    turn_kinds: tuple[str, ...] = ()  # the Message kinds its main channel speaks in (debates/turns.py)
    # Its budget is rounds, not dialogue turns: the setting that gives the default number of rounds.
    rounds_setting: str = ""
    artifact: bool = False  # its results carry one Markdown artifact (download, save as a document)
    seat_columns: bool = False  # its main channel is drawn as one column per seat, not a chat log
    panels: Panels = Panels()

    def __post_init__(self) -> None:
        fewest, most = self.hand
        if not MIN_HAND <= fewest <= most <= MAX_HAND:
            raise ValueError(f"mode {self.key!r}: a hand lies within {MIN_HAND}..{MAX_HAND}, not {self.hand}")
        if self.seats and len(self.seats) != most:
            raise ValueError(f"mode {self.key!r}: {len(self.seats)} seats for a hand of up to {most}")
        roles = MappingProxyType({name: MappingProxyType(dict(d)) for name, d in self.model_roles.items()})
        object.__setattr__(self, "model_roles", roles)


_modes: dict[str, ModeSpec] = {}


def mode_register(spec: ModeSpec) -> ModeSpec:
    """Add (or replace) a mode's row, and register its model roles with the gateway."""
    for name, defaults in spec.model_roles.items():
        model_role_register(name, defaults=defaults)
    _modes[spec.key] = spec
    return spec


def mode_unregister(key: str) -> None:
    spec = _modes.pop(key, None)
    if spec is None:
        return
    still_used = {name for other in _modes.values() for name in other.model_roles}
    for name in spec.model_roles:
        if name not in still_used:
            model_role_unregister(name)


def mode_spec(key: str) -> ModeSpec:
    """The row of a registered mode; LookupError for any other key."""
    try:
        return _modes[key]
    except KeyError:
        raise LookupError(f"no mode {key!r}: registered are {', '.join(_modes)}") from None


def mode_find(key: str | None) -> ModeSpec | None:
    return _modes.get(key or "")


def mode_label(key: str) -> str:
    """The mode's label; its key for a mode no longer registered (an old debate still shows)."""
    spec = _modes.get(key)
    return spec.label if spec is not None else key


def mode_panels(key: str) -> Panels:
    """What a debate of this mode draws; a mode no longer registered gets the plain dialogue page."""
    spec = _modes.get(key)
    return spec.panels if spec is not None else Panels()


def modes_available() -> list[ModeSpec]:
    return list(_modes.values())


def hand_problem(spec: ModeSpec | None, picked: int) -> str:
    """The one hand-size rule: "" when ``picked`` personas suit the mode (any mode's bounds when
    ``spec`` is None), else what to pick."""
    if not MIN_HAND <= picked <= MAX_HAND:
        return f"Pick between {MIN_HAND} and {MAX_HAND} personas (you picked {picked})."
    if spec is None:
        return ""
    fewest, most = spec.hand
    if fewest <= picked <= most:
        return ""
    return spec.hand_error or f"The {spec.label} mode takes between {fewest} and {most} personas."


# ── The four modes ────────────────────────────────────────────────────────────────────────────

# What the personas of a dialogue say, and of a graph debate (the same talk, mapped as it goes).
DIALOGUE_TURN_KINDS = (
    Message.Kind.OPENING,
    Message.Kind.KEY_ARGUMENT,
    Message.Kind.REPLY,
    Message.Kind.ANSWER,
    Message.Kind.CLOSING,
)

mode_register(
    ModeSpec(
        key="dialogue",
        label="Dialogue with crux rooms",
        help="The personas argue it out in one group chat, and when two of them keep disagreeing a crux room "
        "opens for just those two. Pick it to find where people really split.",
        behaviour="orchestration.modes.dialogue.mode.DialogueMode",
        turn_kinds=DIALOGUE_TURN_KINDS,
    )
)
mode_register(
    ModeSpec(
        key="graph",
        label="Argumentation graph",
        help="The same group chat, with a moderator mapping every disagreement as a yes/no question with each "
        "side's reasons; the cruxes are computed from that map. Pick it to see the shape of the argument.",
        behaviour="orchestration.modes.graph.mode.GraphMode",
        printer="orchestration.modes.graph.printer.print_graph",
        panels=Panels(
            side_panels=("modes/graph/panel.html",),
            crux_rooms=False,
            shows="You will see the chat beside an argument map that grows as they disagree, then the cruxes "
            "computed from it.",
            cards_empty="Crux cards are dealt from the argument map when the debate ends.",
            results_detail="modes/graph/results.html",
        ),
        turn_kinds=DIALOGUE_TURN_KINDS,
    )
)
mode_register(
    ModeSpec(
        key="analyst_critic",
        label="Analyst vs Critic",
        help="Two personas on two models: the Analyst answers, the Critic checks each point, round by round, "
        "until they agree or the rounds run out. Pick it to stress-test one answer.",
        behaviour="orchestration.modes.analyst_critic.mode.AnalystCriticMode",
        printer="orchestration.modes.analyst_critic.printer.print_analyst_critic",
        hand=(2, 2),
        # Seat 0 plays the Analyst, seat 1 the Critic; their worldviews colour the two roles.
        hand_error="The Analyst vs Critic mode takes a hand of two: the Analyst and the Critic.",
        seats=(
            RoleSeat(
                "analyst",
                "Analyst",
                "A careful analyst who answers with concrete, reasoned points and refines them on criticism.",
                "The Analyst of an Analyst/Critic debate",
            ),
            RoleSeat(
                "critic",
                "Critic",
                "A fair, exacting critic who accepts what holds and says precisely what does not, and why.",
                "The Critic of an Analyst/Critic debate",
            ),
        ),
        # Two different models really argue.
        model_roles={
            "analyst": {"anthropic": "claude-sonnet-5-5", "local": LOCAL_MODEL},
            "critic": {"anthropic": "claude-opus-5-1", "local": LOCAL_MODEL},
        },
        turn_kinds=(Message.Kind.ANALYSIS, Message.Kind.CRITIQUE, Message.Kind.SYNTHESIS),
        rounds_setting="FAULTLINE_ANALYST_MAX_ROUNDS",
        panels=Panels(
            side_panels=("modes/analyst_critic/consensus_panel.html",),
            where_we_are=False,
            crux_cards=False,
            crux_rooms=False,
            counter="modes/analyst_critic/round_counter.html",
            status_extras=("modes/analyst_critic/consensus_status.html",),
            shows="You will see each round's answer and critique, a consensus score that moves as points are "
            "agreed, and a synthesis at the end; it pauses after each round unless you tick auto-continue.",
            paused_suffix=" for the next round",
            results="modes/analyst_critic/results.html",
        ),
    )
)
mode_register(
    ModeSpec(
        key="collaborate",
        label="Collaborate (two roles write one artifact)",
        help="Pick two: the first is the Architect, the second the Reviewer. They answer your brief side by "
        "side, each revises on the other's answer, and a synthesis writes one Markdown document. Pick it to "
        "get a plan or a design written.",
        behaviour="orchestration.modes.collaborate.mode.CollaborateMode",
        printer="orchestration.modes.collaborate.printer.print_collaboration",
        hand=(2, 2),
        hand_error="The Collaborate mode takes a hand of two: the Architect and the Reviewer.",
        seats=(
            RoleSeat(
                "architect",
                "Architect",
                "A pragmatic architect who shapes a clear structure and a concrete plan that will scale.",
                "The Architect of an Architect/Reviewer collaboration",
            ),
            RoleSeat(
                "reviewer",
                "Reviewer",
                "A thorough reviewer who looks for edge cases, failure modes and security holes, and how to "
                "close them.",
                "The Reviewer of an Architect/Reviewer collaboration",
            ),
        ),
        # Two different models answer the same brief side by side; the artifact is the synthesis role's.
        model_roles={
            "architect": {"anthropic": "claude-sonnet-5-5", "local": LOCAL_MODEL},
            "reviewer": {"anthropic": "claude-opus-5-1", "local": LOCAL_MODEL},
        },
        turn_kinds=(Message.Kind.DRAFT, Message.Kind.REVISION, Message.Kind.ARTIFACT),
        artifact=True,
        seat_columns=True,
        panels=Panels(
            body="modes/collaborate/collaboration.html",
            channel="modes/collaborate/collaboration.html",
            crux_cards=False,
            crux_rooms=False,
            where_we_are=False,
            counter="",
            shows="You will see the two answers in two columns as they are written, then their revisions, then "
            "the artifact, which you can download or save to a project.",
            completed_href="#collab-artifact",
            completed_text="See the artifact",
            results="modes/collaborate/results.html",
            results_lead="modes/collaborate/results_artifact.html",
            owner_actions=("modes/collaborate/artifact_actions.html",),
        ),
    )
)
