"""Readers for the ICCMA file formats.

apx (ICCMA 2015-2021)::

    % a comment
    arg(a).
    arg(b).
    att(a,b).

i23 (ICCMA 2023): a ``p af N`` header, then one ``i j`` attack per line;
arguments are 1..N; lines starting with ``#`` are comments.

Both readers name arguments by strings ("a", "1", ...). Neither accepts more than
``MAX_ARGUMENTS`` arguments: the solver is exact, and a header like ``p af 2000000000`` must be
refused before anything is allocated for it.
"""

import re

from .framework import ArgumentationFramework

FORMATS = ("apx", "i23")
MAX_ARGUMENTS = 1_000_000
MAX_NUMBER_DIGITS = 20

_APX_STATEMENT = re.compile(r"\s*(arg|att)\s*\(([^()]*)\)\s*\.")
_APX_NAME = re.compile(r"[^\s,()%.]+")
_NUMBER = re.compile(r"[0-9]+")


class ParseError(ValueError):
    """A malformed framework file; the message names the file and the line."""

    def __init__(self, source: str, line_number: int, problem: str) -> None:
        super().__init__(f"{source}:{line_number}: {problem}")
        self.source = source
        self.line_number = line_number
        self.problem = problem


class TooLargeError(ParseError):
    """A well-formed framework beyond what this solver takes (see MAX_ARGUMENTS)."""


def _too_many(source: str, line_number: int, count: int) -> TooLargeError:
    return TooLargeError(source, line_number, f"{count} arguments; this solver takes at most {MAX_ARGUMENTS}")


def _shown(text: str, limit: int = 60) -> str:
    """A piece of the input for a message: a whole line can be megabytes long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _number(digits: str) -> int | None:
    """The value of a run of digits, or None when it is too long to be worth converting (past
    4,300 digits Python refuses to, and nothing past 20 names an argument or fits a message)."""
    significant = digits.lstrip("0") or "0"
    return int(significant) if len(significant) <= MAX_NUMBER_DIGITS else None


def parse_apx(text: str, source: str = "<apx>") -> ArgumentationFramework:
    arguments: list[str] = []
    attacks: list[tuple[str, str, int]] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        content = line.split("%", 1)[0]
        position = 0
        while content[position:].strip():
            statement = _APX_STATEMENT.match(content, position)
            if statement is None:
                raise ParseError(
                    source,
                    line_number,
                    f"expected arg(NAME). or att(NAME,NAME). but found {_shown(content[position:].strip())}",
                )
            kind, inside = statement.groups()
            names = [name.strip() for name in inside.split(",")]
            expected = 1 if kind == "arg" else 2
            if len(names) != expected or not all(_APX_NAME.fullmatch(name) for name in names):
                raise ParseError(
                    source, line_number, f"{kind}(...) needs {expected} argument name(s), got {_shown(inside.strip())}"
                )
            if kind == "arg":
                arguments.append(names[0])
                if len(arguments) > MAX_ARGUMENTS:
                    raise _too_many(source, line_number, len(arguments))
            else:
                attacks.append((names[0], names[1], line_number))
            position = statement.end()

    declared = set(arguments)
    for attacker, target, line_number in attacks:
        for name in (attacker, target):
            if name not in declared:
                raise ParseError(source, line_number, f"attack names undeclared argument {name!r}")
    return ArgumentationFramework(arguments, ((a, b) for a, b, _ in attacks))


def parse_i23(text: str, source: str = "<i23>") -> ArgumentationFramework:
    argument_count: int | None = None
    attacks: list[tuple[str, str]] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        content = line.strip()
        if not content or content.startswith("#"):
            continue
        fields = content.split()
        if argument_count is None:
            if len(fields) != 3 or fields[:2] != ["p", "af"] or not _NUMBER.fullmatch(fields[2]):
                raise ParseError(source, line_number, f"expected header 'p af N' but found {_shown(content)}")
            argument_count = _number(fields[2])
            if argument_count is None:
                raise TooLargeError(
                    source,
                    line_number,
                    f"a {len(fields[2])}-digit number of arguments; this solver takes at most {MAX_ARGUMENTS}",
                )
            if argument_count > MAX_ARGUMENTS:
                raise _too_many(source, line_number, argument_count)
            continue
        if len(fields) != 2 or not all(_NUMBER.fullmatch(field) for field in fields):
            raise ParseError(source, line_number, f"expected an attack 'i j' but found {_shown(content)}")
        numbers = [_number(field) for field in fields]
        for field, number in zip(fields, numbers, strict=True):
            if number is None or not 1 <= number <= argument_count:
                shown = number if number is not None else f"{_shown(field, 12)} ({len(field)} digits)"
                raise ParseError(source, line_number, f"argument {shown} is outside 1..{argument_count}")
        attacker, target = numbers
        attacks.append((str(attacker), str(target)))
    if argument_count is None:
        raise ParseError(source, 1, "missing header 'p af N'")
    return ArgumentationFramework((str(n) for n in range(1, argument_count + 1)), attacks)


def parse_framework(text: str, file_format: str, source: str) -> ArgumentationFramework:
    if file_format == "apx":
        return parse_apx(text, source)
    if file_format == "i23":
        return parse_i23(text, source)
    raise ValueError(f"unknown format {file_format!r}; supported: {', '.join(FORMATS)}")
