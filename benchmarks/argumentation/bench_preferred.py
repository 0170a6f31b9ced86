"""Preferred-extension enumeration: the Faultline engine vs pygarg vs PyArg.

    python benchmarks/argumentation/bench_preferred.py            # n = 100, 200, 500, 1000
    python benchmarks/argumentation/bench_preferred.py --quick    # n = 100, 200, short timeout
    python benchmarks/argumentation/bench_preferred.py --sizes 500 --families debate --timeout 300

For every family, size and seed one framework is generated and written as
apx; each solver runs on it in its own child process (run_solver.py) under a
wall-clock timeout, so a slow solver is reported as "timeout" instead of
hanging the run; once a solver times out on a family, its larger sizes are
"skipped".  All finished solvers must return the same set of preferred
extensions, else the row says MISMATCH.

Times:
- "solve": in-process time to build the framework and enumerate every
  preferred extension (best of --repeats runs; excludes interpreter start-up,
  imports and file parsing).
- "process": wall time of the whole child process for one run (start-up,
  imports, parsing, solving, writing the result), with bytecode cached for
  every solver (a warm-up run fills the cache first).
The ratio columns are pygarg time / Faultline time.
"""

import argparse
import datetime
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generators import as_apx, debate_framework, random_framework

HERE = Path(__file__).resolve().parent
SOLVER_NAMES = ("faultline", "pygarg", "pyarg")


def child_environment(workdir: str) -> dict:
    # Every solver gets cached bytecode, kept out of the source tree: the
    # site-packages ones already have .pyc files, our package might not.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    environment["PYTHONPYCACHEPREFIX"] = str(Path(workdir) / "pycache")
    return environment


def run_one(solver: str, apx_path: Path, timeout: float, repeats: int, environment: dict) -> dict:
    result_path = apx_path.with_suffix(f".{solver}.txt")
    started = time.perf_counter()
    try:
        completed = subprocess.run(
            [sys.executable, str(HERE / "run_solver.py"), solver, str(apx_path), str(result_path), str(repeats)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment,
        )
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    wall = time.perf_counter() - started
    if completed.returncode != 0:
        last_line = (completed.stderr.strip().splitlines() or ["?"])[-1]
        return {"status": "error", "detail": last_line}
    first_line, *extension_lines = result_path.read_text().split("\n")[:-1]
    durations = [float(d) for d in first_line.split()]
    extensions = [frozenset(line.split()) for line in extension_lines]
    return {
        "status": "ok",
        "solve": min(durations),
        # The child ran the solve len(durations) times; count one of them.
        "process": wall - sum(durations[1:]),
        "extensions": set(extensions),
        "count": len(extensions),
        "duplicates": len(extensions) - len(set(extensions)),
    }


def format_seconds(outcome: dict, key: str) -> str:
    if outcome["status"] != "ok":
        return outcome["status"]
    seconds = outcome[key]
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def ratio(numerator: dict, denominator: dict, key: str) -> str:
    if numerator["status"] != "ok" or denominator["status"] != "ok":
        return "-"
    return f"{numerator[key] / denominator[key]:.0f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100,200,500,1000", help="comma-separated numbers of arguments")
    parser.add_argument("--families", default="debate,random", help="debate, random or both")
    parser.add_argument("--solvers", default=",".join(SOLVER_NAMES), help="which solvers to run")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per solver per framework")
    parser.add_argument("--repeats", type=int, default=3, help="in-process repeats for the solve time")
    parser.add_argument("--random-degree", type=float, default=3.0, help="average attacks per argument (random family)")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds; one framework per seed")
    parser.add_argument("--quick", action="store_true", help="n = 100, 200 and a 20 s timeout")
    options = parser.parse_args()
    if options.quick:
        options.sizes, options.timeout = "100,200", 20.0
    sizes = [int(size) for size in options.sizes.split(",")]
    families = options.families.split(",")
    solvers = options.solvers.split(",")
    seeds = [int(seed) for seed in options.seeds.split(",")]

    print(
        f"# {datetime.date.today()} | {platform.processor() or platform.machine()} | "
        f"{os.cpu_count()} cores | Python {platform.python_version()} | "
        f"timeout {options.timeout:g} s | repeats {options.repeats}"
    )
    print(
        "| family | n | seed | attacks | preferred | "
        + " | ".join(f"{s} solve" for s in solvers)
        + " | "
        + " | ".join(f"{s} process" for s in solvers)
        + " | pygarg/ours solve | pygarg/ours process | same answer |"
    )
    print("|" + "---|" * (6 + 2 * len(solvers) + 2))
    all_agree = True
    timed_out: set[tuple[str, str]] = set()
    with tempfile.TemporaryDirectory() as workdir:
        environment = child_environment(workdir)
        warm_up = Path(workdir) / "warm-up.apx"
        warm_up.write_text(as_apx(["a", "b"], [("a", "b")]))
        for solver in solvers:
            run_one(solver, warm_up, options.timeout, 1, environment)
        for family in families:
            for size, seed in ((size, seed) for size in sizes for seed in seeds):
                if family == "debate":
                    arguments, attacks = debate_framework(size, seed)
                    label = "debate"
                else:
                    arguments, attacks = random_framework(size, seed, options.random_degree)
                    label = f"random (degree {options.random_degree:g})"
                apx_path = Path(workdir) / f"{family}-{size}-{seed}.apx"
                apx_path.write_text(as_apx(arguments, attacks))
                outcomes = {}
                for solver in solvers:
                    if (solver, family) in timed_out:
                        # It already timed out on a smaller framework of this family.
                        outcomes[solver] = {"status": "skipped"}
                        continue
                    outcomes[solver] = run_one(solver, apx_path, options.timeout, options.repeats, environment)
                    if outcomes[solver]["status"] == "timeout":
                        timed_out.add((solver, family))
                finished = [o for o in outcomes.values() if o["status"] == "ok"]
                answers = {frozenset(o["extensions"]) for o in finished}
                same = (
                    "yes"
                    if len(answers) == 1 and len(finished) == len(solvers)
                    else ("MISMATCH" if len(answers) > 1 else f"yes ({len(finished)} finished)")
                )
                repeated = [s for s, o in outcomes.items() if o["status"] == "ok" and o["duplicates"]]
                if repeated:
                    same = f"DUPLICATES from {', '.join(repeated)}"
                all_agree &= len(answers) <= 1 and not repeated
                count = finished[0]["count"] if finished else "?"
                ours = outcomes.get("faultline", {"status": "-"})
                theirs = outcomes.get("pygarg", {"status": "-"})
                print(
                    f"| {label} | {size} | {seed} | {len(attacks)} | {count} | "
                    + " | ".join(format_seconds(outcomes[s], "solve") for s in solvers)
                    + " | "
                    + " | ".join(format_seconds(outcomes[s], "process") for s in solvers)
                    + " | "
                    + f"{ratio(theirs, ours, 'solve')} | {ratio(theirs, ours, 'process')} | {same} |",
                    flush=True,
                )
                for name, outcome in outcomes.items():
                    if outcome["status"] == "error":
                        print(f"  {name} failed: {outcome['detail']}", file=sys.stderr)
    sys.exit(0 if all_agree else 1)


if __name__ == "__main__":
    main()
