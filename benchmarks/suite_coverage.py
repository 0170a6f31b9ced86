"""Line coverage of the production packages by the whole test suite, for this checkout or a commit.

    .venv/bin/python benchmarks/suite_coverage.py                # this checkout
    .venv/bin/python benchmarks/suite_coverage.py --commit 647f5f1   # a commit, in a worktree of its own

The suite runs as `make test` runs it (pytest on two xdist workers), under coverage.py, with every
Python process it starts measured too (coverage's subprocess patch: the xdist workers, the shared
Celery worker, daphne, `manage.py` runs, launchers), and the data of all of them combined. The
packages counted are the site's own (not tests, benchmarks, devtools or migrations); the same
rules are applied to both sides of a comparison, so each commit is measured against its own
code. It prints the tests that passed and the percentage of lines covered, and writes the report
to benchmarks/reports/coverage-<name>.txt.

A commit is checked out with `git worktree add` under /tmp and runs on this checkout's virtualenv
(its own migrations, templates and code; only the installed packages are shared), so it must
install from the same lock file or close to it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [
    "faultline",
    "ops",
    "gateways",
    "debates",
    "projects",
    "personas",
    "crux",
    "memory",
    "atlas",
    "orchestration",
]
PACKAGES += ["argumentation", "evaluation"]
RCFILE = """\
[run]
source = {source}
omit =
    */migrations/*
    */tests/*
parallel = true
concurrency = thread
patch = subprocess
sigterm = true
data_file = {data}

[report]
precision = 1
"""


def measure(tree: Path, name: str, python: str) -> tuple[str, str]:
    work = Path(tempfile.mkdtemp(prefix=f"coverage-{name}-"))
    packages = [package for package in PACKAGES if (tree / package).is_dir()]
    rcfile = work / "coveragerc"
    rcfile.write_text(RCFILE.format(source=",".join(packages), data=work / ".coverage"))
    env = {
        **os.environ,
        "COVERAGE_RCFILE": str(rcfile),
        "FAULTLINE_STATE_DIR": str(tree / ".faultline" / "test"),
        "PYTHONPATH": str(tree),
    }
    run = subprocess.run(
        [python, "-m", "coverage", "run", "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    subprocess.run([python, "-m", "faultline", "stop"], cwd=tree, env=env, capture_output=True)
    tests = re.findall(r"^=*\s*(\d+ passed.*?) in [\d.]+s", run.stdout, flags=re.M)
    subprocess.run([python, "-m", "coverage", "combine", "-q"], cwd=tree, env=env, check=True)
    report = subprocess.run(
        [python, "-m", "coverage", "report"], cwd=tree, env=env, capture_output=True, text=True, check=True
    ).stdout
    out = ROOT / "benchmarks" / "reports" / f"coverage-{name}.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report)
    total = report.strip().splitlines()[-1].split()[-1]
    shutil.rmtree(work, ignore_errors=True)
    return (tests[-1] if tests else run.stdout[-400:]), total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", help="measure this commit in a worktree of its own (default: this checkout)")
    args = parser.parse_args()
    python = str(ROOT / ".venv" / "bin" / "python")
    if not args.commit:
        tests, total = measure(ROOT, "checkout", python)
        print(f"this checkout: {tests}; production lines covered: {total}")
        return 0
    tree = Path(tempfile.mkdtemp(prefix="coverage-tree-")) / args.commit
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.commit], cwd=ROOT, check=True)
    try:
        tests, total = measure(tree, args.commit, python)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT)
    print(f"{args.commit}: {tests}; production lines covered: {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
