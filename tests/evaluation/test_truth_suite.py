"""manage.py evaluate --suite truth: every mode, its metrics in the JSON, its owner gone afterwards,
and the seed still loads."""

import dataclasses
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from debates.models import Debate
from gateways.llm.models import ModelCall
from memory.models import Insight
from orchestration.evaluation.truth import truth_run
from orchestration.evaluation.truth_scenarios import AGREE, COLLABORATE, SCENARIOS_BY_NAME
from personas.models import Deck, Persona
from personas.selectors import personas_visible_to

pytestmark = pytest.mark.django_db(transaction=True)

METRICS = {
    "crux_precision",
    "crux_recall",
    "inverted_point_rate",
    "fake_consensus_rate",
    "missed_consensus_rate",
    "false_fact_rate",
}
ONE_PER_MODE = ["one_changes_the_subject", "critic_comes_round", "collaborators_split_on_storage"]


@pytest.fixture(scope="module")
def truth_report(django_db_setup, django_db_blocker, tmp_path_factory):
    """Three scenarios, which between them run all four modes, through the command once."""
    out = tmp_path_factory.mktemp("truth") / "r.json"
    with django_db_blocker.unblock():
        calls_before = ModelCall.objects.count()
        call_command(
            "evaluate",
            "--suite=truth-legacy",
            "--model=fake",
            f"--json={out}",
            *[f"--scenario={s}" for s in ONE_PER_MODE],
        )
        left = {
            "owners": get_user_model().objects.filter(username__startswith="eval-").count(),
            "personas": Persona.objects.count(),
            "debates": Debate.objects.count(),
            "insights": Insight.objects.count(),
            "model calls": ModelCall.objects.count() - calls_before,
        }
        yield {"report": json.loads(out.read_text()), "text": out.with_suffix(".txt").read_text(), "left": left}


def test_it_reports_every_metric_for_every_mode(truth_report):
    report = truth_report["report"]

    assert set(report["modes"]) == {"dialogue", "graph", "analyst_critic", "collaborate"}
    for row in report["modes"].values():
        assert set(row) >= METRICS
    assert {(d["scenario"], d["mode"]) for d in report["debates"]} == {
        ("one_changes_the_subject", "dialogue"),
        ("one_changes_the_subject", "graph"),
        ("critic_comes_round", "analyst_critic"),
        ("collaborators_split_on_storage", "collaborate"),
    }
    assert all(d["status"] == "completed" for d in report["debates"]), [d["failure"] for d in report["debates"]]
    assert report["graph_vs_dialogue"]["one_changes_the_subject"].keys() == {"dialogue", "graph"}
    assert "fake consensus" in truth_report["text"] and "analyst_critic" in truth_report["text"]


def test_a_decoy_remark_is_taken_for_an_open_question_so_precision_falls_below_one(truth_report):
    collaborate = truth_report["report"]["modes"]["collaborate"]

    assert collaborate["crux_recall"] == 1.0  # the real split on where photos live
    assert collaborate["crux_precision"] == 0.5  # "my only objection to the queue is its name" read as one


def test_facts_are_recalled_for_the_related_topic_and_counted_for_unrelated_ones(truth_report):
    (run,) = [d for d in truth_report["report"]["debates"] if d["scenario"] == "critic_comes_round"]
    related = [p for p in run["probes"] if p["related"]]
    unrelated = [p for p in run["probes"] if not p["related"]]

    assert run["metrics"]["outcome"] == "consensus" and not run["metrics"]["missed_consensus"]
    assert related and all(p["facts"] for p in related)  # agreed points became established facts
    assert len(unrelated) == 3
    row = truth_report["report"]["modes"]["analyst_critic"]
    assert row["false_facts"] == sum(len(p["facts"]) for p in unrelated)
    assert row["unrelated_topics_probed"] == 3


def test_the_suite_leaves_no_owner_persona_debate_or_fact_behind(truth_report):
    # The owners' model calls go with them (those of deleted debates are billed to their owner).
    assert truth_report["left"] == {"owners": 0, "personas": 0, "debates": 0, "insights": 0, "model calls": 0}


def test_an_owner_is_deleted_with_what_it_made_even_when_the_run_fails():
    from orchestration.evaluation.owner import owned_persona, throwaway_owner

    with pytest.raises(RuntimeError), throwaway_owner() as owner:
        owned_persona(
            owner,
            name="Ada Hawk",
            version="1",
            personality="p",
            bias="b",
            stakes="s",
            epistemology="e",
            time_horizon="t",
            flip_conditions="f",
        )
        raise RuntimeError("the run failed")

    assert not get_user_model().objects.exists() and not Persona.objects.exists()


def test_the_seed_loads_after_an_evaluation_and_no_evaluation_persona_is_shown(truth_report, tmp_path):
    call_command(
        "evaluate",
        "--suite=core",
        "--model=fake",
        "--seeds=0",
        "--scenario=truly_agree",
        f"--json={tmp_path / 'c.json'}",
    )

    call_command("loadseed", verbosity=0)

    assert Deck.objects.filter(owner__isnull=True).count() >= 2
    user = get_user_model().objects.create_user(username="reader")
    assert not [p for p in personas_visible_to(user=user) if p.persona_id.startswith("eval-")]


def test_leftovers_of_an_older_run_neither_block_the_seed_nor_survive_the_migration():
    import importlib

    from django.apps import apps

    Persona.objects.create(
        persona_id="eval-ada-hawk",
        name="Ada Hawk",
        version="1",
        personality="p",
        bias="b",
        stakes="s",
        epistemology="e",
        time_horizon="t",
        flip_conditions="f",
    )

    call_command("loadseed", verbosity=0)
    assert Deck.objects.filter(owner__isnull=True).exists()

    importlib.import_module("personas.migrations.0005_remove_evaluation_leftovers").remove_leftovers(apps, None)
    assert not Persona.objects.filter(persona_id__startswith="eval-").exists()


def test_a_run_whose_ground_truth_disagrees_with_what_was_said_is_scored_wrong():
    """The same speech, told the collaborators agree: the consensus it did not report is missed."""
    split = SCENARIOS_BY_NAME["collaborators_split_on_storage"]

    told_right = truth_run(split, COLLABORATE)
    told_wrong = truth_run(dataclasses.replace(split, expect=AGREE, cruxes=()), COLLABORATE)

    assert not told_right["metrics"]["missed_consensus"] and told_right["metrics"]["cruxes"]["recall"] == 1.0
    assert told_wrong["metrics"]["missed_consensus"]
    assert told_wrong["metrics"]["cruxes"]["precision"] == 0.0  # every open question now a decoy


def test_it_refuses_a_real_model_and_an_unknown_scenario():
    with pytest.raises(CommandError, match="--model fake only"):
        call_command("evaluate", "--suite=truth", "--model=local")
    with pytest.raises(CommandError, match="unknown scenario"):
        call_command("evaluate", "--suite=truth", "--scenario=nope")
