"""manage.py evaluate --suite truth plays the truth corpus through the app: every Analyst/Critic
scenario and one scenario of each other mode here, each in its mode, its figures per mode in the
report, its owner gone afterwards; --corpus plays another folder, and a folder named held_out is
reported apart."""

from __future__ import annotations

import json
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.models import Debate
from evaluation.corpus.loader import TRUTH, load_corpus
from memory.models import Insight
from personas.models import Persona

pytestmark = pytest.mark.django_db(transaction=True)

EVERY_ANALYST_CRITIC = [s.name for s in load_corpus() if s.mode == "analyst_critic"]
ONE_PER_MODE = [
    "collab_postgres_backups_agree",
    "dialogue_reactors_agree_in_other_words",
    "graph_remote_default_concession",
]
OWN_FIGURES = (
    "failed_runs",
    "fake_consensus",
    "missed_consensus",
    "points_twice",
    "inverted_points",
    "statuses_wrong",
    "consensus_late",
    "consensus_early",
    "unassessed_wrong",
    "ghost_names",
    "recalled_missing",
    "recalled_not_in_prompts",
)
HEADLINE = {"fake_consensus", "could_fake", "missed_consensus", "could_miss", "ghost_names", "forbidden_on_surfaces"}


@pytest.fixture(scope="module")
def corpus_report(django_db_setup, django_db_blocker, tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus") / "r.json"
    with django_db_blocker.unblock():
        personas = Persona.objects.count()
        call_command(
            "evaluate",
            "--suite=truth",
            "--model=fake",
            f"--json={out}",
            *[f"--scenario={s}" for s in EVERY_ANALYST_CRITIC + ONE_PER_MODE],
        )
        left = {
            "owners": get_user_model().objects.filter(username__startswith="eval-").count(),
            "personas": Persona.objects.count() - personas,
            "debates": Debate.objects.count(),
            "insights": Insight.objects.count(),
        }
        yield {"report": json.loads(out.read_text()), "text": out.with_suffix(".txt").read_text(), "left": left}


def test_each_scenario_runs_in_its_mode_and_each_mode_reports_the_headline_figures(corpus_report):
    report = corpus_report["report"]

    assert [(run["scenario"], run["mode"], run["status"]) for run in report["runs"]] == [
        *[(name, "analyst_critic", "completed") for name in EVERY_ANALYST_CRITIC],
        ("collab_postgres_backups_agree", "collaborate", "completed"),
        ("dialogue_reactors_agree_in_other_words", "dialogue", "completed"),
        ("graph_remote_default_concession", "graph", "completed"),
    ]
    assert set(report["modes"]) == {"analyst_critic", "collaborate", "dialogue", "graph"}
    for mode, row in report["modes"].items():
        assert set(row) >= HEADLINE and row["scenarios"] == (
            len(EVERY_ANALYST_CRITIC) if mode == "analyst_critic" else 1
        )
    assert not report["held_out"]
    assert (
        "collaborate (1 scenarios, 0 failed runs): fake consensus 0 of 0, missed consensus 0 of 1"
        in corpus_report["text"]
    )
    assert corpus_report["left"] == {"owners": 0, "personas": 0, "debates": 0, "insights": 0}


def test_analyst_vs_critic_by_reference_fakes_no_consensus_misses_none_and_lists_no_point_twice(corpus_report):
    """Issue 39's figures for item 1, over every Analyst/Critic scenario of the corpus (the house
    phrases are the voice guard's, item 4, and not counted here)."""
    row = corpus_report["report"]["modes"]["analyst_critic"]

    assert row["could_fake"] and row["could_miss"]
    assert {key: row[key] for key in OWN_FIGURES} == dict.fromkeys(OWN_FIGURES, 0)


def test_the_withdrawn_winter_claim_closes_and_the_recalled_insight_reaches_every_role(corpus_report):
    (run,) = [r for r in corpus_report["report"]["runs"] if r["scenario"] == "ac_winter_claim_withdrawn"]
    ac = run["metrics"]["analyst_critic"]

    assert run["verdict"] == "consensus" and ac["consensus_round"] == 3
    assert ac["statuses"]["p3"] == {"expected": "withdrawn", "reported": "withdrawn"}
    assert ac["statuses"]["p4"] == {"expected": "superseded", "reported": "superseded"}
    assert (ac["points_twice"], ac["inverted"], ac["statuses_wrong"]) == ([], [], [])
    assert run["metrics"]["recalled_missing"] == [] and run["metrics"]["recalled_not_in_prompts"] == []
    assert run["calls"]["critic:AgreementAssessment"] == 3 and run["unanswered_calls"] == {}


def test_a_folder_named_held_out_is_played_and_reported_apart(tmp_path):
    held_out = tmp_path / "held_out"
    held_out.mkdir()
    shutil.copy(TRUTH / "ac_latency_restated_hiring_narrowed.toml", held_out)
    out = tmp_path / "h.json"

    call_command("evaluate", "--suite=truth", "--model=fake", f"--corpus={held_out}", f"--json={out}")

    report = json.loads(out.read_text())
    assert report["held_out"] and [run["held_out"] for run in report["runs"]] == [True]
    assert report["modes"]["analyst_critic"]["missed_consensus"] == 0
    assert out.with_suffix(".txt").read_text().startswith("Truth corpus (held-out scenarios)")


def test_it_refuses_an_unknown_scenario_or_an_empty_corpus(tmp_path):
    with pytest.raises(CommandError, match="unknown scenario"):
        call_command("evaluate", "--suite=truth", "--scenario=nope")
    with pytest.raises(CommandError, match="no scenario"):
        call_command("evaluate", "--suite=truth", f"--corpus={tmp_path}")


def test_collaborate_s_key_decisions_are_read_by_id_and_each_comes_out_as_the_scenario_says(corpus_report):
    (run,) = [r for r in corpus_report["report"]["runs"] if r["scenario"] == "collab_postgres_backups_agree"]

    assert run["metrics"]["collaborate"]["decisions_wrong"] == []  # recorded (None: none), none wrong
    assert corpus_report["report"]["modes"]["collaborate"]["decisions_wrong"] == 0
