"""The import-linter contracts in pyproject.toml hold: layers run one way, and the argumentation
engine stays plain Python. A new upward import fails here (and so in CI)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def lint_imports(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_layer_contracts_are_kept():
    result = lint_imports()
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("lower", "higher", "module"),
    [
        ("debates", "orchestration", "loop"),  # the record imports the orchestrator
        ("projects", "debates", "models"),  # a user's material imports the record it sits below
        ("crux", "memory", "models"),  # disputes import the long-term memory built on them
        ("gateways.llm", "gateways.embeddings", "gateway"),  # the model gateway depends on embeddings
    ],
)
def test_an_upward_import_breaks_the_layers(tmp_path, lower, higher, module):
    # The same contracts, run on a copy of the tree with one upward import: the check must notice.
    import shutil

    tree = tmp_path / "tree"
    for package in (
        "faultline",
        "ops",
        "gateways",
        "personas",
        "projects",
        "debates",
        "crux",
        "memory",
        "orchestration",
        "argumentation",
    ):
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    (tree / lower.replace(".", "/") / "upward.py").write_text(f"from {higher} import {module}  # noqa: F401\n")
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode != 0
    assert f"{lower}.upward" in result.stdout and higher in result.stdout
