"""The ICCMA-style command line: its main() in this process for every task and error, and once
for real as `python -m argumentation` in a subprocess."""

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from argumentation.cli import main

from .iccma_answers import read_extension, read_extension_list
from .named_frameworks import NIXON_DIAMOND

PROJECT_ROOT = Path(__file__).resolve().parents[2]
TASKS = [f"{p}-{s}" for p in ("EE", "SE", "DC", "DS") for s in ("GR", "CO", "PR", "ST")]

NIXON_APX = """\
% The Nixon diamond: q and r attack each other, both defeat h, h attacks v.
arg(q).
arg( r ).

  arg(h).   arg(v).
att(q,r).  % pacifist or not
att(r, q).
att(q,h).
att(r,h).
att(h,v).
"""

# The same framework numbered q=1, r=2, h=3, v=4.
NIXON_I23 = """\
# The Nixon diamond
p af 4
1 2
2 1

# q and r both defeat h
1 3
2 3
3 4
"""
NIXON_NUMBERS = {"q": "1", "r": "2", "h": "3", "v": "4"}


def run_solver(*arguments: str) -> subprocess.CompletedProcess:
    """What `python -m argumentation ARGUMENTS` prints and returns, from its main() in this process
    (a Python process per call would cost ~0.3 s of CPU each, over a hundred calls here)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(arguments))
        except SystemExit as exit:  # argparse's own errors
            code = exit.code
    return subprocess.CompletedProcess(["argumentation", *arguments], code, out.getvalue(), err.getvalue())


def run_module(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "argumentation", *arguments],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_runs_as_a_module_answering_on_stdout_and_failing_with_one_line_on_stderr(nixon_files):
    path, _ = nixon_files["apx"]

    answer = run_module("-p", "DC-GR", "-f", str(path), "-fo", "apx", "-a", "v")
    failure = run_module("-p", "EE-XX", "-f", str(path), "-fo", "apx")

    assert (answer.returncode, answer.stdout, answer.stderr) == (0, "NO\n", "")
    assert_one_line_error(failure, "EE-XX")


@pytest.fixture
def nixon_files(tmp_path):
    apx = tmp_path / "nixon.apx"
    apx.write_text(NIXON_APX)
    i23 = tmp_path / "nixon.i23"
    i23.write_text(NIXON_I23)
    return {"apx": (apx, lambda name: name), "i23": (i23, NIXON_NUMBERS.__getitem__)}


def expected_answer(task: str, query: str | None):
    problem, code = task.split("-")
    semantics = next(s for s in NIXON_DIAMOND.extensions if s.value == code)
    extensions = NIXON_DIAMOND.extensions[semantics]
    if problem == "DC":
        return "YES" if any(query in e for e in extensions) else "NO"
    if problem == "DS":
        return "YES" if all(query in e for e in extensions) else "NO"
    return extensions


@pytest.mark.parametrize("file_format", ["apx", "i23"])
@pytest.mark.parametrize("task", TASKS)
def test_it_answers_every_task_in_both_formats(nixon_files, file_format, task):
    path, name_in_file = nixon_files[file_format]
    queries = list(NIXON_DIAMOND.arguments) if task[:2] in ("DC", "DS") else [None]
    for query in queries:
        extra = ["-a", name_in_file(query)] if query else []

        result = run_solver("-p", task, "-f", str(path), "-fo", file_format, *extra)

        assert result.returncode == 0, result.stderr
        answer = result.stdout.strip()
        expected = expected_answer(task, query)
        in_file_names = {frozenset(map(name_in_file, e)) for e in expected} if query is None else None
        if task.startswith("EE"):
            extensions = read_extension_list(answer)
            assert len(extensions) == len(set(extensions))
            assert set(extensions) == in_file_names
        elif task.startswith("SE"):
            assert read_extension(answer) in in_file_names
        else:
            assert answer == expected, query


def test_it_prints_an_empty_list_when_there_is_no_extension(tmp_path):
    path = tmp_path / "odd.apx"
    path.write_text("arg(a). arg(b). arg(c).\natt(a,b). att(b,c). att(c,a).\n")

    assert run_solver("-p", "EE-ST", "-f", str(path), "-fo", "apx").stdout == "[]\n"
    assert run_solver("-p", "SE-ST", "-f", str(path), "-fo", "apx").stdout == "NO\n"


def test_it_prints_a_list_holding_the_empty_extension(tmp_path):
    path = tmp_path / "cycle.i23"
    path.write_text("p af 2\n1 2\n2 1\n")

    assert run_solver("-p", "EE-GR", "-f", str(path), "-fo", "i23").stdout == "[[]]\n"
    assert run_solver("-p", "SE-GR", "-f", str(path), "-fo", "i23").stdout == "[]\n"


def test_it_says_yes_to_ds_st_when_there_is_no_stable_extension(tmp_path):
    path = tmp_path / "odd.i23"
    path.write_text("p af 3\n1 2\n2 3\n3 1\n")

    assert run_solver("-p", "DS-ST", "-f", str(path), "-fo", "i23", "-a", "1").stdout == "YES\n"
    assert run_solver("-p", "DC-ST", "-f", str(path), "-fo", "i23", "-a", "1").stdout == "NO\n"


def test_it_lists_the_supported_problems_and_formats():
    assert run_solver("--problems").stdout == "[" + ",".join(TASKS) + "]\n"
    assert run_solver("--formats").stdout == "[apx,i23]\n"


def test_it_names_itself_when_run_without_arguments():
    result = run_solver()

    assert result.returncode == 0
    assert "Faultline" in result.stdout
    assert "1.0" in result.stdout.splitlines()[0]


def assert_one_line_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert result.returncode != 0
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for fragment in fragments:
        assert fragment in result.stderr


def test_it_rejects_a_malformed_apx_file_naming_file_and_line(tmp_path):
    path = tmp_path / "broken.apx"
    path.write_text("arg(a).\n\narg(b).\natt(a b).\n")

    result = run_solver("-p", "EE-PR", "-f", str(path), "-fo", "apx")

    assert_one_line_error(result, f"{path}:4:")


def test_it_rejects_an_apx_attack_on_an_undeclared_argument(tmp_path):
    path = tmp_path / "undeclared.apx"
    path.write_text("arg(a).\natt(a,zz).\n")

    assert_one_line_error(run_solver("-p", "EE-GR", "-f", str(path), "-fo", "apx"), f"{path}:2:", "zz")


def test_it_rejects_a_malformed_i23_file_naming_file_and_line(tmp_path):
    path = tmp_path / "broken.i23"
    path.write_text("# header next\np af 3\n1 2\n2 x\n")

    assert_one_line_error(run_solver("-p", "EE-PR", "-f", str(path), "-fo", "i23"), f"{path}:4:")


def test_it_rejects_an_i23_argument_outside_the_range(tmp_path):
    path = tmp_path / "range.i23"
    path.write_text("p af 3\n1 2\n3 4\n")

    assert_one_line_error(run_solver("-p", "SE-CO", "-f", str(path), "-fo", "i23"), f"{path}:3:")


def test_it_rejects_an_i23_file_without_header(tmp_path):
    path = tmp_path / "headless.i23"
    path.write_text("1 2\n")

    assert_one_line_error(run_solver("-p", "SE-CO", "-f", str(path), "-fo", "i23"), f"{path}:1:")


def test_it_rejects_an_unknown_query_argument(nixon_files):
    path, _ = nixon_files["apx"]

    assert_one_line_error(run_solver("-p", "DC-PR", "-f", str(path), "-fo", "apx", "-a", "nobody"), "nobody")


def test_it_rejects_an_unknown_task(nixon_files):
    path, _ = nixon_files["apx"]

    assert_one_line_error(run_solver("-p", "EE-XX", "-f", str(path), "-fo", "apx"), "EE-XX")


def test_it_rejects_an_unknown_format(nixon_files):
    path, _ = nixon_files["apx"]

    assert_one_line_error(run_solver("-p", "EE-PR", "-f", str(path), "-fo", "tgf"), "tgf")


def test_it_rejects_a_missing_file(tmp_path):
    path = tmp_path / "missing.apx"

    assert_one_line_error(run_solver("-p", "EE-PR", "-f", str(path), "-fo", "apx"), str(path))


def test_it_asks_for_the_query_argument_of_acceptance_tasks(nixon_files):
    path, _ = nixon_files["apx"]

    assert_one_line_error(run_solver("-p", "DS-PR", "-f", str(path), "-fo", "apx"), "-a")


def test_it_rejects_unknown_options():
    assert_one_line_error(run_solver("--frobnicate"), "--frobnicate")
