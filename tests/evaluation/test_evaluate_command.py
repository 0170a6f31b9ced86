import json
import subprocess

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.models import Debate
from orchestration.management.commands.evaluate import REPORT_DIR

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_writes_a_json_and_an_html_report_with_a_threshold_sweep(tmp_path, capsys):
    out = tmp_path / "r.json"

    call_command(
        "evaluate",
        "--suite=core",
        "--model=fake",
        "--seeds=0",
        "--scenario=circling",
        f"--json={out}",
        "--sweep=CRUX_MIN_CONSECUTIVE_WINDOWS=3,99",
    )

    report = json.loads(out.read_text())
    assert report["suite"] == "core" and report["model"] == "fake" and report["thresholds"]["CRUX_MIN_CONFIDENCE"]
    assert [d["scenario"] for d in report["debates"]] == ["circling"]
    assert report["summary"]["recall"] == 1.0
    # A room needs 99 windows in a row: nothing is found, and the regime still does not say consensus
    # (the cards alone, as before the ledger check, would have).
    sweep = [
        (row["value"], row["recall"], row["fake_consensus_rate"], row["fake_consensus_rate_by_cards_alone"])
        for row in report["sweep"]
    ]
    assert sweep == [(3, 1.0, 0.0, 0.0), (99, 0.0, 0.0, 1.0)]
    html = (tmp_path / "r.html").read_text()
    assert "<svg" in html and "Planted-crux recall" in html and "circling" in html
    assert "recall: 1.0" in capsys.readouterr().out
    assert not Debate.objects.exists()  # the evaluation's debates are deleted


def test_it_refuses_an_unknown_scenario_or_threshold():
    with pytest.raises(CommandError, match="unknown scenario"):
        call_command("evaluate", "--suite=core", "--scenario=nope")
    with pytest.raises(CommandError, match="NAME=VALUE"):
        call_command("evaluate", "--suite=core", "--set=SECRET_KEY=1")


def test_its_reports_go_to_a_folder_git_ignores():
    # Reports are outputs named by commit: written where git will not pick them up.
    probe = REPORT_DIR / "core-fake-0000000.json"
    done = subprocess.run(["git", "check-ignore", "-q", str(probe)], cwd=REPORT_DIR.parent.parent, timeout=10)
    assert done.returncode == 0, f"{probe} is not ignored by git"
