"""Run a scenario suite through the real orchestrator and measure what came out.

    report = suite_evaluate(suite_name="core", model="fake", seeds=[0, 1, 2])

Each scenario becomes a real debate (its personas written from the scenario's contracts), run by
``debate_run`` like a worker runs one. With ``model="fake"`` every model call goes through the
real anthropic SDK to a local fake Messages API answered by the scripted model; with "local" or
"anthropic" the configured provider plays the personas. Each scenario runs under a throwaway owner
of its own (owner.py): its personas and debate are private to it, and it is deleted afterwards with
all it made, model calls included, unless ``keep`` (the debate and its owner then stay).
"""

from __future__ import annotations

import contextlib
import time
from decimal import Decimal

from django.conf import settings
from django.db.models import Count, Sum
from django.test.utils import override_settings

from crux.models import CruxCard, CruxRoom
from debates.exports import debate_markdown
from debates.models import Debate, Event, Message
from debates.selectors import debate_view
from debates.services.lifecycle import DebateOptions, debate_create
from debates.stance_history import entropy_by_round, stance_history
from devtools.fake_messages_api import FakeMessagesAPI
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from orchestration.evaluation import judge, metrics
from orchestration.evaluation.owner import owned_persona, owner_create, throwaway_owner
from orchestration.evaluation.scenarios import Scenario, suite
from orchestration.evaluation.scripted import ScriptedModel
from orchestration.run import debate_run
from personas.models import Persona

MODELS = ("fake", "local", "anthropic")
TUNABLE = (
    "CRUX_DETECTION_EVERY_MESSAGES",
    "CRUX_DETECTION_WINDOW_MESSAGES",
    "CRUX_MIN_CONSECUTIVE_WINDOWS",
    "CRUX_MIN_CONFIDENCE",
    "CRUX_PAIR_COOLDOWN_SECONDS",
    "CRUX_ROOM_MAX_TURNS",
)


@contextlib.contextmanager
def _model(model: str, scenario: Scenario, personas: list[Persona]):
    if model != "fake":
        with override_settings(FAULTLINE_LLM=model):
            gateway.reset_provider()
            yield
        gateway.reset_provider()
        return
    # The scripted model plays each persona from the spec its contract was written from, by persona id.
    script = ScriptedModel(
        scenario, cast={p.persona_id: spec for p, spec in zip(personas, scenario.personas, strict=True)}
    )
    with (
        FakeMessagesAPI(responder=script.respond) as api,
        override_settings(
            FAULTLINE_LLM="anthropic",
            ANTHROPIC_API_KEY="evaluation",
            ANTHROPIC_BASE_URL=api.url,
            ANTHROPIC_MAX_RETRIES=2,
            FAULTLINE_MODEL_WAIT_SECONDS=0,
            FAULTLINE_BATCH_POLL_SECONDS=0.05,  # the fake ends a batch at its second look
        ),
    ):
        gateway.reset_provider()
        try:
            yield
        finally:
            gateway.reset_provider()


def _personas(scenario: Scenario, owner) -> list[Persona]:
    personas = []
    for spec in scenario.personas:
        fields = spec.contract()
        del fields["persona_id"]
        personas.append(owned_persona(owner, **fields))
    return personas


def _usage(debate: Debate) -> dict:
    totals = ModelCall.objects.filter(debate=debate).aggregate(
        calls=Count("id"), input=Sum("input_tokens"), output=Sum("output_tokens"), cost=Sum("cost_usd")
    )
    spoken = Message.objects.filter(debate=debate).count()
    persona_calls = ModelCall.objects.filter(debate=debate, role="persona").count()
    return {
        # Drafts the voice guard sent back (a forbidden phrase): persona calls past one per message.
        "persona_redrafts": max(0, persona_calls - spoken),
        "model_calls": totals["calls"] or 0,
        "input_tokens": totals["input"] or 0,
        "output_tokens": totals["output"] or 0,
        "cost_usd": float(totals["cost"] or Decimal(0)),
    }


def scenario_run(scenario: Scenario, *, model: str = "fake", keep: bool = False, with_judge: bool = False) -> dict:
    """One scenario, one seed: a whole debate, and what it measured (with its id when kept).

    It runs under an owner of its own (owner.py), deleted afterwards with all it made; a kept
    debate keeps its owner (a user nobody can log in as, named in the record)."""
    if keep:
        owner = owner_create()
        return {
            **_scenario_run(scenario, model=model, keep=True, with_judge=with_judge, owner=owner),
            "owner": owner.username,
        }
    with throwaway_owner() as owner:
        return _scenario_run(scenario, model=model, keep=False, with_judge=with_judge, owner=owner)


def _scenario_run(scenario: Scenario, *, model: str, keep: bool, with_judge: bool, owner) -> dict:
    personas = _personas(scenario, owner)
    started = time.monotonic()
    with _model(model, scenario, personas):
        debate = debate_create(
            owner=owner,
            topic=scenario.topic,
            personas=personas,
            max_turns=scenario.max_turns,
            options=DebateOptions(length="short"),
        )
        debate = debate_run(debate_id=debate.id)
        judged = judge.cards_judge(debate=debate) if with_judge else []
    seconds = round(time.monotonic() - started, 2)

    cards = [
        {
            "question": card.question,
            "type": card.disagreement_type,
            "resolved": card.resolved,
            "positions": {p["name"]: p["position"] for p in card.positions.values()},
        }
        for card in CruxCard.objects.filter(debate=debate).order_by("created_at")
    ]
    rooms = [
        {"question": room.question, "pair": [room.persona_a.name, room.persona_b.name]}
        for room in CruxRoom.objects.filter(debate=debate).select_related("persona_a", "persona_b")
    ]
    events = Event.objects.filter(debate=debate).order_by("seq").values_list("kind", "payload")
    steps = stance_history(events, [p.id for p in personas])
    names = {p.id: p.name for p in personas}
    page = "\n".join(Message.objects.filter(debate=debate).values_list("text", flat=True))
    page += "\n" + debate_markdown(debate=debate, view=debate_view(debate_id=debate.id))
    forbidden = [phrase for p in personas for phrase in p.forbidden_phrases]
    planted = [{"question": c.question, "keywords": list(c.keywords), "kind": c.kind} for c in scenario.planted]
    results = debate.results or {}
    record = {
        "debate_id": str(debate.id) if keep else None,
        "scenario": scenario.name,
        "seed": scenario.seed,
        "expect": scenario.expect,
        "status": debate.status,
        "failure": debate.failure_reason,
        "seconds": seconds,
        "planted": [c["question"] for c in planted],
        "cards": cards,
        "rooms": rooms,
        "final_sides": results.get("final_sides", {}),
        "regime_basis": results.get("regime_basis", ""),
        "stances": [{names[pid]: side for pid, side in step.items()} for step in steps],
        "judge": judged,
        "metrics": metrics.debate_metrics(
            expect=scenario.expect,
            regime=results.get("regime", ""),
            planted=planted,
            cards=cards,
            rooms=rooms,
            entropy_by_round=entropy_by_round(steps, len(personas)),
            leaks=metrics.page_leaks(page, forbidden),
            usage=_usage(debate),
        ),
    }
    return record  # unless kept, the debate goes with its owner (scenario_run)


def current_thresholds() -> dict:
    return {name: getattr(settings, name) for name in TUNABLE}


def suite_evaluate(
    *,
    suite_name: str,
    model: str = "fake",
    seeds: list[int],
    keep: bool = False,
    only: list[str] | None = None,
    scenarios: list[Scenario] | None = None,
    progress=None,
) -> dict:
    """only: scenario names to run (default: all of the suite); scenarios: run these instead."""
    with_judge = model == "anthropic" and bool(settings.ANTHROPIC_API_KEY)
    debates = []
    for scenario in scenarios or suite(suite_name, seeds):
        if only and scenario.name not in only:
            continue
        debates.append(scenario_run(scenario, model=model, keep=keep, with_judge=with_judge))
        if progress:
            progress(debates[-1])
    return {
        "suite": suite_name,
        "model": model,
        "seeds": seeds,
        "thresholds": current_thresholds(),
        "summary": metrics.suite_summary(debates),
        "judge": judge.judge_summary(debates) if with_judge else None,
        "debates": debates,
    }


def sweep_evaluate(
    *, suite_name: str, model: str, seeds: list[int], setting: str, values: list, only: list[str] | None = None
) -> list[dict]:
    """The suite once per value of one detection threshold: how recall and precision move."""
    rows = []
    for value in values:
        with override_settings(**{setting: value}):
            report = suite_evaluate(suite_name=suite_name, model=model, seeds=seeds, only=only)
        summary = report["summary"]
        rows.append(
            {
                "setting": setting,
                "value": value,
                **{
                    key: summary[key]
                    for key in (
                        "recall",
                        "precision",
                        "fake_consensus_rate",
                        "fake_consensus_rate_by_cards_alone",
                        "duplicate_rooms",
                        "crux_compression",
                    )
                },
            }
        )
    return rows
