"""Run one solver's preferred-extension enumeration on one apx file (a child process).

    python benchmarks/argumentation/run_solver.py SOLVER FILE.apx RESULT.txt [REPEATS]

SOLVER is faultline, pygarg or pyarg.  The file is parsed here, outside the
timed part; each solver gets the arguments and attacks in its own native
form.  The timed part builds the solver's framework object and enumerates
every preferred extension.  It is repeated REPEATS times (default 1, stopping
early once a run takes over 5 s).  The result file is plain text: the
durations on the first line, then one extension of the first run per line,
its argument names separated by spaces.

The harness imports as little as it can (no json, no pathlib): its start-up
cost lands in every solver's whole-process time.
"""

import os
import sys
import time

PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def read_apx(path: str) -> tuple[list[str], list[tuple[str, str]]]:
    arguments, attacks = [], []
    with open(path) as handle:
        lines = handle.read().splitlines()
    for line in lines:
        line = line.strip()
        if line.startswith("arg("):
            arguments.append(line[4:-2])
        elif line.startswith("att("):
            attacker, target = line[4:-2].split(",")
            attacks.append((attacker, target))
    return arguments, attacks


def faultline_preferred(arguments, attacks):
    sys.path.insert(0, PROJECT_ROOT)
    from argumentation import ArgumentationFramework, Semantics

    def solve():
        return ArgumentationFramework(arguments, attacks).extensions(Semantics.PREFERRED)

    return solve


def pygarg_preferred(arguments, attacks):
    from pygarg.dung import solver

    attack_lists = [[a, b] for a, b in attacks]

    def solve():
        return solver.extension_enumeration(arguments, attack_lists, "PR")

    return solve


def pyarg_preferred(arguments, attacks):
    from py_arg.abstract_argumentation_classes.abstract_argumentation_framework import (
        AbstractArgumentationFramework,
    )
    from py_arg.abstract_argumentation_classes.argument import Argument
    from py_arg.abstract_argumentation_classes.defeat import Defeat
    from py_arg.algorithms.semantics.get_preferred_extensions import get_preferred_extensions

    # PyArg's search recurses once per argument.
    sys.setrecursionlimit(max(10_000, 4 * len(arguments)))

    def solve():
        by_name = {name: Argument(name) for name in arguments}
        defeats = [Defeat(by_name[a], by_name[b]) for a, b in attacks]
        framework = AbstractArgumentationFramework("bench", list(by_name.values()), defeats)
        return [[argument.name for argument in e] for e in get_preferred_extensions(framework)]

    return solve


SOLVERS = {"faultline": faultline_preferred, "pygarg": pygarg_preferred, "pyarg": pyarg_preferred}


def main() -> None:
    solver_name, apx_path, result_path = sys.argv[1:4]
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    arguments, attacks = read_apx(apx_path)
    solve = SOLVERS[solver_name](arguments, attacks)
    durations = []
    extensions = None
    for _ in range(repeats):
        started = time.perf_counter()
        found = solve()
        durations.append(time.perf_counter() - started)
        if extensions is None:
            extensions = found
        if durations[-1] > 5:
            break
    with open(result_path, "w") as handle:
        handle.write(" ".join(repr(d) for d in durations) + "\n")
        for extension in extensions:
            handle.write(" ".join(sorted(str(a) for a in extension)) + "\n")


if __name__ == "__main__":
    main()
