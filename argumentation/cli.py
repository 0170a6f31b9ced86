"""ICCMA-style solver interface.

    python -m argumentation -p EE-PR -f framework.apx -fo apx
    python -m argumentation -p DC-ST -f framework.i23 -fo i23 -a 3
    python -m argumentation --problems
    python -m argumentation --formats

Answers follow ICCMA 2019: ``[[a,b],[c]]`` for EE, ``[a,b]`` or ``NO`` for SE,
``YES``/``NO`` for DC and DS.  Every error is one line on stderr and a
non-zero exit status (1 for a bad input file, 2 for bad usage or an input
beyond the solver's limits: more than MAX_ARGUMENTS arguments, a file over
MAX_INPUT_BYTES, or a problem that runs out of memory).
"""

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from typing import NoReturn, TextIO

from .framework import ArgumentationFramework
from .parsers import FORMATS, MAX_ARGUMENTS, ParseError, TooLargeError, parse_framework
from .semantics import Semantics

SOLVER_NAME = "Faultline argumentation 1.0"
SOLVER_AUTHOR = "The Faultline project"
MAX_INPUT_BYTES = 256 * 1024 * 1024

PROBLEMS = tuple(f"{problem}-{semantics.value}" for problem in ("EE", "SE", "DC", "DS") for semantics in Semantics)


class UsageError(Exception):
    """Bad command line (exit status 2)."""


class InputError(Exception):
    """Unreadable or malformed input (exit status 1)."""


class LimitError(Exception):
    """Input beyond what the solver takes (exit status 2)."""


class _OneLineArgumentParser(argparse.ArgumentParser):
    # argparse prints the whole usage text on error; solvers print one line.
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _argument_parser() -> argparse.ArgumentParser:
    parser = _OneLineArgumentParser(prog="python -m argumentation", add_help=True)
    parser.add_argument("-p", dest="problem", metavar="TASK", help="e.g. EE-PR, DC-GR (see --problems)")
    parser.add_argument("-f", dest="file", metavar="FILE", help="the framework file")
    parser.add_argument("-fo", dest="file_format", metavar="FORMAT", help="apx or i23")
    parser.add_argument("-a", dest="argument", metavar="ARG", help="query argument for DC and DS")
    parser.add_argument("--problems", action="store_true", help="list the supported tasks")
    parser.add_argument("--formats", action="store_true", help="list the supported file formats")
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        return _run(argv, out)
    except (UsageError, LimitError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except InputError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"error: out of memory (this solver takes at most {MAX_ARGUMENTS} arguments)", file=sys.stderr)
        return 2


def _run(argv: list[str], out: TextIO) -> int:
    if not argv:
        out.write(f"{SOLVER_NAME}\n{SOLVER_AUTHOR}\n")
        return 0
    options = _argument_parser().parse_args(argv)
    if options.problems:
        out.write(f"[{','.join(PROBLEMS)}]\n")
        return 0
    if options.formats:
        out.write(f"[{','.join(FORMATS)}]\n")
        return 0

    if options.problem is None:
        raise UsageError("missing -p TASK")
    if options.problem not in PROBLEMS:
        raise UsageError(f"unknown task {options.problem!r}; supported: [{','.join(PROBLEMS)}]")
    if options.file is None:
        raise UsageError("missing -f FILE")
    if options.file_format is None:
        raise UsageError("missing -fo FORMAT")
    if options.file_format not in FORMATS:
        raise UsageError(f"unknown format {options.file_format!r}; supported: [{','.join(FORMATS)}]")
    problem, semantics_code = options.problem.split("-")
    semantics = Semantics(semantics_code)
    if problem in ("DC", "DS") and options.argument is None:
        raise UsageError(f"task {options.problem} needs -a ARG")

    framework = _read_framework(options.file, options.file_format)
    if problem in ("DC", "DS") and options.argument not in framework:
        raise InputError(f"argument {options.argument!r} does not occur in {options.file}")

    if problem == "EE":
        _write_extensions(framework, framework.iter_extensions(semantics), out)
    elif problem == "SE":
        extension = framework.some_extension(semantics)
        out.write("NO\n" if extension is None else _format_extension(framework, extension) + "\n")
    elif problem == "DC":
        accepted = framework.credulously_accepted(options.argument, semantics)
        out.write("YES\n" if accepted else "NO\n")
    else:
        accepted = framework.skeptically_accepted(options.argument, semantics)
        out.write("YES\n" if accepted else "NO\n")
    return 0


def _read_framework(path: str, file_format: str) -> ArgumentationFramework:
    try:
        size = os.stat(path).st_size
        if size > MAX_INPUT_BYTES:
            raise LimitError(f"{path}: {size} bytes; this solver reads at most {MAX_INPUT_BYTES}")
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    try:
        return parse_framework(text, file_format, source=path)
    except TooLargeError as error:
        raise LimitError(str(error)) from None
    except ParseError as error:
        raise InputError(str(error)) from None


def _format_extension(framework: ArgumentationFramework, extension: frozenset) -> str:
    # Input order, so answers are stable from run to run.
    return "[" + ",".join(str(a) for a in framework.arguments if a in extension) + "]"


def _write_extensions(framework: ArgumentationFramework, extensions: Iterable[frozenset], out: TextIO) -> None:
    # Streamed: there may be far too many extensions to hold as one string.
    out.write("[")
    for count, extension in enumerate(extensions):
        if count:
            out.write(",")
        out.write(_format_extension(framework, extension))
    out.write("]\n")
