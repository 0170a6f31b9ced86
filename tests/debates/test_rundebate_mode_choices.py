"""`rundebate --mode` names its choices as the user types them."""

import contextlib
import io
import subprocess

from django.core.management import execute_from_command_line


def rundebate(*arguments: str) -> subprocess.CompletedProcess:
    """What `manage.py rundebate ARGUMENTS` prints and returns, parsed by Django's own command line
    in this process (both cases stop at the argument parser, before any debate)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            execute_from_command_line(["manage.py", "rundebate", *arguments])
            code = 0
        except SystemExit as exit:
            code = exit.code
    return subprocess.CompletedProcess(["manage.py", "rundebate", *arguments], code, out.getvalue(), err.getvalue())


def test_its_help_lists_the_modes_by_value():
    result = rundebate("--help")

    assert result.returncode == 0, result.stderr
    assert "--mode {dialogue,graph,analyst-critic,collaborate}" in result.stdout
    assert "Debate.Mode" not in result.stdout


def test_it_rejects_an_unknown_mode_naming_the_values():
    result = rundebate("--mode", "monologue")

    assert result.returncode != 0
    assert (
        "invalid choice: 'monologue' (choose from 'dialogue', 'graph', 'analyst-critic', 'collaborate')"
        in result.stderr
    ), result.stderr
    assert "Debate.Mode" not in result.stderr
