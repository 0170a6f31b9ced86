"""The names of the semantics and labels the engine speaks."""

from enum import Enum


class Semantics(Enum):
    """Dung semantics; the values are the ICCMA task suffixes."""

    GROUNDED = "GR"
    COMPLETE = "CO"
    PREFERRED = "PR"
    STABLE = "ST"


class Label(Enum):
    """A label of an argument in a (complete) labelling."""

    IN = "IN"
    OUT = "OUT"
    UNDEC = "UNDEC"
