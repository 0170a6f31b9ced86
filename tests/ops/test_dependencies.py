"""Every declared dependency is used: imported, run with `python -m`, named in settings, or one of
the few plugins below that are loaded by something else."""

import ast
import re
import subprocess
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # reads every module the code imports

ROOT = Path(__file__).resolve().parents[2]
SKIPPED_FOLDERS = {".venv", ".faultline", ".git", "build", "staticfiles", "node_modules"}

# Loaded by another program, never imported by ours.
PLUGINS = {
    "psycopg": "Django's PostgreSQL backend imports it",
    "pytest-django": "pytest plugin (DJANGO_SETTINGS_MODULE in pyproject.toml)",
    "pytest-timeout": "pytest plugin (timeout in pyproject.toml)",
    "pytest-xdist": "pytest plugin (`make test` runs the suite with -n)",
    "ruff": "the linter and formatter `make lint` runs",
    "import-linter": "`lint-imports`, run by tests/test_layers.py (the layer contracts in pyproject.toml)",
}


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = project["dependencies"] + [r for extra in project["optional-dependencies"].values() for r in extra]
    return [normalized(re.split(r"[\[=<>~;! ]", requirement)[0]) for requirement in requirements]


def python_files() -> list[Path]:
    return [path for path in ROOT.rglob("*.py") if not SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts)]


def modules_used(tree: ast.AST, *, is_settings: bool = False) -> set[str]:
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            used.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            used.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and getattr(node.func, "attr", None) in ("find_spec", "import_module")
        ):
            used.add(str(node.args[0].value).split(".")[0])
        elif isinstance(node, ast.List | ast.Tuple):  # [sys.executable, "-m", "daphne", ...]
            words = [item.value if isinstance(item, ast.Constant) else None for item in node.elts]
            used.update(str(after) for before, after in zip(words, words[1:], strict=False) if before == "-m" and after)
        elif (
            is_settings
            and isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.fullmatch(r"[a-z_][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*", node.value)
        ):
            used.add(node.value.split(".")[0])  # INSTALLED_APPS, MIDDLEWARE, BACKEND paths
    return used


def test_it_counts_imports_module_runs_and_settings_paths():
    source = "import a.b\nfrom c import d\nimportlib.util.find_spec('e')\ncmd = [python, '-m', 'f', 'x']\n"

    assert modules_used(ast.parse(source)) == {"a", "c", "e", "f"}
    assert "g" in modules_used(ast.parse("MIDDLEWARE = ['g.middleware.M']"), is_settings=True)


def test_every_declared_dependency_is_used():
    used = set()
    for path in python_files():
        used |= modules_used(ast.parse(path.read_text(), str(path)), is_settings=path.name == "settings.py")
    provided_by: dict[str, set[str]] = {}
    for module, distributions in packages_distributions().items():
        for distribution in distributions:
            provided_by.setdefault(normalized(distribution), set()).add(module)

    unused = [name for name in declared() if name not in PLUGINS and not provided_by.get(name, set()) & used]

    assert not unused, f"declared but never imported, run or named in settings: {unused}"
    assert set(PLUGINS) <= set(declared()), "a plugin listed here is no longer declared"


def test_no_wheel_is_committed():
    listed = subprocess.run(["git", "ls-files", "*.whl"], cwd=ROOT, capture_output=True, text=True, check=True)

    assert listed.stdout == ""
