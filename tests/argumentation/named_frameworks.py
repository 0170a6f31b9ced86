"""Small textbook frameworks with their known answers, worked out by hand."""

from dataclasses import dataclass, field

from argumentation import ArgumentationFramework, Semantics

GR, CO, PR, ST = Semantics.GROUNDED, Semantics.COMPLETE, Semantics.PREFERRED, Semantics.STABLE


@dataclass(frozen=True)
class NamedFramework:
    name: str
    arguments: tuple[str, ...]
    attacks: tuple[tuple[str, str], ...]
    extensions: dict  # Semantics -> set of frozensets
    grounded_labelling: dict  # argument -> "IN" / "OUT" / "UNDEC"
    notes: str = field(default="")

    def build(self) -> ArgumentationFramework:
        return ArgumentationFramework(self.arguments, self.attacks)


def _sets(*members: str) -> set[frozenset[str]]:
    return {frozenset(m) for m in members}


EMPTY = NamedFramework(
    name="empty",
    arguments=(),
    attacks=(),
    extensions={GR: _sets(""), CO: _sets(""), PR: _sets(""), ST: _sets("")},
    grounded_labelling={},
    notes="the empty set is the one extension under every semantics",
)

ONE_ARGUMENT = NamedFramework(
    name="one argument",
    arguments=("a",),
    attacks=(),
    extensions={GR: _sets("a"), CO: _sets("a"), PR: _sets("a"), ST: _sets("a")},
    grounded_labelling={"a": "IN"},
)

CHAIN = NamedFramework(
    name="chain a->b->c",
    arguments=("a", "b", "c"),
    attacks=(("a", "b"), ("b", "c")),
    extensions={GR: _sets("ac"), CO: _sets("ac"), PR: _sets("ac"), ST: _sets("ac")},
    grounded_labelling={"a": "IN", "b": "OUT", "c": "IN"},
    notes="a defends c against b",
)

TWO_CYCLE = NamedFramework(
    name="2-cycle a<->b",
    arguments=("a", "b"),
    attacks=(("a", "b"), ("b", "a")),
    extensions={GR: _sets(""), CO: _sets("", "a", "b"), PR: _sets("a", "b"), ST: _sets("a", "b")},
    grounded_labelling={"a": "UNDEC", "b": "UNDEC"},
)

ODD_CYCLE = NamedFramework(
    name="3-cycle a->b->c->a",
    arguments=("a", "b", "c"),
    attacks=(("a", "b"), ("b", "c"), ("c", "a")),
    extensions={GR: _sets(""), CO: _sets(""), PR: _sets(""), ST: set()},
    grounded_labelling={"a": "UNDEC", "b": "UNDEC", "c": "UNDEC"},
    notes="no stable extension at all",
)

# Nixon is a Quaker (so a pacifist: q) and a Republican (so not a pacifist: r).
# Either way he is not "apolitical" (h), and h was the only objection to
# "Nixon has political views" (v).  v is accepted in every preferred and stable
# extension -- a floating conclusion -- but not in the grounded one.
NIXON_DIAMOND = NamedFramework(
    name="Nixon diamond",
    arguments=("q", "r", "h", "v"),
    attacks=(("q", "r"), ("r", "q"), ("q", "h"), ("r", "h"), ("h", "v")),
    extensions={
        GR: _sets(""),
        CO: {frozenset(), frozenset({"q", "v"}), frozenset({"r", "v"})},
        PR: {frozenset({"q", "v"}), frozenset({"r", "v"})},
        ST: {frozenset({"q", "v"}), frozenset({"r", "v"})},
    },
    grounded_labelling={"q": "UNDEC", "r": "UNDEC", "h": "UNDEC", "v": "UNDEC"},
)

SELF_ATTACK = NamedFramework(
    name="self-attack a->a->b",
    arguments=("a", "b"),
    attacks=(("a", "a"), ("a", "b")),
    extensions={GR: _sets(""), CO: _sets(""), PR: _sets(""), ST: set()},
    grounded_labelling={"a": "UNDEC", "b": "UNDEC"},
    notes="a can never be accepted, and neither can b, which only a could be defeated by",
)

SELF_ATTACK_DEFEATED = NamedFramework(
    name="self-attacker defeated: c->a->a->b",
    arguments=("a", "b", "c"),
    attacks=(("a", "a"), ("a", "b"), ("c", "a")),
    extensions={GR: _sets("bc"), CO: _sets("bc"), PR: _sets("bc"), ST: _sets("bc")},
    grounded_labelling={"a": "OUT", "b": "IN", "c": "IN"},
)

ALL = (
    EMPTY,
    ONE_ARGUMENT,
    CHAIN,
    TWO_CYCLE,
    ODD_CYCLE,
    NIXON_DIAMOND,
    SELF_ATTACK,
    SELF_ATTACK_DEFEATED,
)
