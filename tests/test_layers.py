"""The import-linter contracts in pyproject.toml hold: layers run one way (the site's wiring on top,
the gateways at the bottom, the operations code beside the wiring), no package has an import cycle
inside it, the argumentation engine stays plain Python, and no production code runs on the
development tools (devtools/). A new upward import or cycle fails here (and so in CI)."""

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Packages of the repository that are not the site: they may import anything.
OUTSIDE_THE_SITE = {"tests", "benchmarks"}


def site_packages() -> list[str]:
    return sorted(
        path.name for path in ROOT.iterdir() if (path / "__init__.py").exists() and path.name not in OUTSIDE_THE_SITE
    )


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


def test_the_contracts_cover_every_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert sorted(config["root_packages"]) == site_packages()
    acyclic = [c for c in config["contracts"] if c["type"] == "acyclic_siblings"]
    assert acyclic and sorted(acyclic[0]["ancestors"]) == site_packages()
    # Each package is in a layer, or is placed beside them by a forbidden contract (ops, argumentation).
    placed = set()
    for contract in config["contracts"]:
        if contract["type"] == "layers":
            placed |= {part.strip() for layer in contract["layers"] for part in layer.split(":")}
        if contract["type"] == "forbidden":
            placed |= set(contract["source_modules"]) | set(contract["forbidden_modules"])
    assert {module.split(".")[0] for module in placed} >= set(site_packages())


@pytest.mark.parametrize(
    ("lower", "higher", "module"),
    [
        ("debates", "orchestration", "loop"),  # the record imports the orchestrator
        ("projects", "debates", "models"),  # a user's material imports the record it sits below
        ("crux", "memory", "models"),  # disputes import the long-term memory built on them
        ("gateways.llm", "gateways.embeddings", "gateway"),  # the model gateway depends on embeddings
        ("gateways.pages", "faultline", "urls"),  # a gateway imports the site's wiring
        ("personas", "ops", "embedded"),  # an app reaches for the operations code
        ("ops", "faultline", "settings"),  # the operations code imports the wiring above it
        ("gateways.llm.providers", "devtools", "fake_messages_api"),  # production runs on a fake
        ("debates", "devtools", "scripted_debate"),
    ],
)
def test_an_upward_import_breaks_the_layers(tmp_path, lower, higher, module):
    # The same contracts, run on a copy of the tree with one upward import: the check must notice.
    tree = tree_copy(tmp_path)
    package = tree / lower.replace(".", "/")
    if not package.is_dir():  # a module (gateways.pages): the import goes in it
        package.with_suffix(".py").write_text(
            package.with_suffix(".py").read_text() + f"\nfrom {higher} import {module}  # noqa: E402, F401\n"
        )
        upward = lower
    else:
        (package / "upward.py").write_text(f"from {higher} import {module}  # noqa: F401\n")
        upward = f"{lower}.upward"
    result = lint_imports_in(tree)
    assert result.returncode != 0
    assert upward in result.stdout and higher in result.stdout


@pytest.mark.parametrize(
    ("package", "one", "other"),
    [
        # lifecycle and quotas once imported each other from inside functions: such a cycle counts
        ("debates/services", "lifecycle", "quotas"),
        ("debates", "blackboard", "services"),  # sub-packages of one app, through a module of each
        ("gateways/llm", "gateway", "selectors"),
    ],
)
def test_an_import_cycle_inside_a_package_breaks_the_contracts(tmp_path, package, one, other):
    tree = tree_copy(tmp_path)
    dotted = package.replace("/", ".")

    def add(target: str, line: str) -> None:
        path = tree / package / f"{target}.py"
        if not path.exists():
            path = tree / package / target / "__init__.py"
        path.write_text(path.read_text() + "\n\n" + line + "\n")

    add(one, f"def _back():\n    from {dotted} import {other}  # noqa: F401")
    add(other, f"def _forth():\n    from {dotted} import {one}  # noqa: F401")
    result = lint_imports_in(tree)
    assert result.returncode != 0
    assert "No import cycle inside a package" in result.stdout and "BROKEN" in result.stdout
    assert f"No cycles are allowed in {dotted}" in result.stdout


def tree_copy(tmp_path: Path) -> Path:
    import shutil

    tree = tmp_path / "tree"
    for package in site_packages():
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def lint_imports_in(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )
