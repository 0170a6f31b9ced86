"""`rundebate --mode` names its choices as the user types them."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rundebate(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "rundebate", *arguments],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
    )


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
