"""Dung-style abstract argumentation: grounded, complete, preferred and stable semantics.

Plain Python, no Django.  Typical use::

    framework = ArgumentationFramework(["a", "b"], [("a", "b"), ("b", "a")])
    framework.extensions(Semantics.PREFERRED)   # [frozenset({'a'}), frozenset({'b'})]
    framework.grounded_labelling()              # {'a': Label.UNDEC, 'b': Label.UNDEC}
"""

from .framework import ArgumentationFramework
from .parsers import ParseError, parse_apx, parse_i23
from .semantics import Label, Semantics

__all__ = [
    "ArgumentationFramework",
    "Label",
    "ParseError",
    "Semantics",
    "parse_apx",
    "parse_i23",
]
