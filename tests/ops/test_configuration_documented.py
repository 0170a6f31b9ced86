"""The README's configuration table lists exactly the environment variables the code reads."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV_READERS = {"str", "int", "bool", "list", "float", "json", "url", "db_url", "cache_url", "path", "dict", "tuple"}


def app_sources() -> list[Path]:
    """Every Python file of every top-level package (tests and benchmarks aside), and manage.py."""
    packages = [path for path in ROOT.iterdir() if (path / "__init__.py").exists() and path.name != "tests"]
    return [ROOT / "manage.py", *(source for package in packages for source in package.rglob("*.py"))]


def name_pattern(node: ast.expr) -> str | None:
    """A literal name as itself; an f-string name ("FAULTLINE_MODEL_{role}") as FAULTLINE_MODEL_<...>."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(part.value if isinstance(part, ast.Constant) else "<...>" for part in node.values)
    return None


def is_os_environ(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name)


def reads_environment(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "env"  # django-environ: env("NAME")
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in ENV_READERS and isinstance(func.value, ast.Name) and func.value.id == "env":
        return True  # django-environ: env.str("NAME", ...)
    return (func.attr == "get" and is_os_environ(func.value)) or func.attr == "getenv"


def variables_read(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and node.args and reads_environment(node.func):
            name = name_pattern(node.args[0])
        elif isinstance(node, ast.Subscript) and is_os_environ(node.value) and isinstance(node.ctx, ast.Load):
            name = name_pattern(node.slice)
        if name:
            found.add(name)
    return found


def code_variables() -> set[str]:
    return set().union(*(variables_read(ast.parse(source.read_text(), str(source))) for source in app_sources()))


def documented_variables() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_<>.]*)`", row.split(" | ")[0])}


def documented(name: str, table: set[str]) -> bool:
    if "<...>" not in name:
        return name in table
    prefix = name.split("<...>")[0]
    return any(row.startswith(prefix) and "<" in row for row in table)


def test_it_finds_variables_however_the_code_reads_them():
    source = (
        "import os\nimport environ\nenv = environ.Env()\n"
        "A = env.int('A_INT', default=1)\nB = env('B_PLAIN')\nC = os.environ.get('C_GET')\nD = os.environ['D_ITEM']\n"
        "E = os.getenv('E_GETENV')\nfor role in ('x',):\n    F = env.str(f'F_{role.upper()}', default='')\n"
        "os.environ.setdefault('NOT_READ', 'x')\n"
    )

    assert variables_read(ast.parse(source)) == {"A_INT", "B_PLAIN", "C_GET", "D_ITEM", "E_GETENV", "F_<...>"}


def test_every_variable_the_code_reads_is_in_the_readme_table():
    table = documented_variables()

    missing = sorted(name for name in code_variables() if not documented(name, table))

    assert not missing, f"add these to the README's configuration table: {missing}"


def test_the_readme_table_lists_no_variable_the_code_does_not_read():
    read = code_variables()

    stale = sorted(
        name
        for name in documented_variables()
        if name not in read and not any(documented(pattern, {name}) for pattern in read)
    )

    assert not stale, f"the README documents variables no code reads: {stale}"
