"""`make test` lints first, and the lint fails on a violation."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUFF = [sys.executable, "-m", "ruff"]


def test_make_test_runs_ruff_check_and_format_check_before_pytest():
    planned = subprocess.run(["make", "-n", "test"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout

    check, format_check, pytest = (
        planned.find(text) for text in ("ruff check .", "ruff format --check .", "-m pytest")
    )
    assert -1 < check < pytest and -1 < format_check < pytest, planned


def test_ruff_fails_on_a_lint_violation_and_on_unformatted_code(tmp_path):
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "unused.py").write_text("import os\n")
    (tmp_path / "unformatted.py").write_text("x = {  'a':1}\n")

    lint = subprocess.run([*RUFF, "check", "unused.py"], cwd=tmp_path, capture_output=True, text=True)
    formatting = subprocess.run(
        [*RUFF, "format", "--check", "unformatted.py"], cwd=tmp_path, capture_output=True, text=True
    )

    assert lint.returncode == 1 and "F401" in lint.stdout
    assert formatting.returncode == 1 and "1 file would be reformatted" in formatting.stdout
