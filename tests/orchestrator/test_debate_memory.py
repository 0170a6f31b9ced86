"""Nobody forgets: evidence cited and challenged in round 1 is still in every persona's context in
round 3, and the closing context lists every concession. Read from the `rundebate --trace` file,
i.e. exactly what was sent to the model."""

import json
import logging
import re
from collections import Counter

import pytest
from django.core.management import call_command

from debates.blackboard.models import BlackboardNotes, PositionState, Reflection
from debates.models import Debate, Message
from devtools.fake_messages_api import user_text
from devtools.scripted_debate import MEMORY_CHALLENGE, MEMORY_EVIDENCE
from orchestration.ledger_folding import DIGEST_MESSAGES
from tests.support.spend import debate_cost

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ada Hardmoney", "Bram Macro", "Cleo Central")


def persona_contexts(trace) -> list[dict]:
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    return [line for line in lines if line["role"] == "persona"]


def gold_debate_run(trace) -> Debate:
    """The three personas debate gold for 18 turns through ``rundebate``, tracing its model calls."""
    call_command(
        "rundebate",
        "--personas",
        ",".join(NAMES),
        "--topic",
        "Is gold still a store of value?",
        "--max-turns",
        "18",
        "--trace",
        str(trace),
    )
    return Debate.objects.get()


def context_text(call: dict) -> str:
    return user_text(call)


def test_round_three_remembers_round_one_and_the_closing_lists_every_concession(scripted_api, personas, tmp_path):
    scripted_api(memory=True, dispute="none")
    trace = tmp_path / "trace.jsonl"
    debate = gold_debate_run(trace)
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    cited = Message.objects.filter(debate=debate, text__contains=MEMORY_EVIDENCE)
    assert cited.filter(persona__name="Ada Hardmoney").exists() and cited.filter(persona__name="Bram Macro").exists()
    assert set(cited.values_list("aspect_index", flat=True)) == {0}, "said in round 1 only"

    calls = persona_contexts(trace)
    round_three = [c for c in calls if "Current aspect (3 of 3)" in context_text(c)]
    assert {c["persona"] for c in round_three} == {"ada-hardmoney", "bram-macro", "cleo-central"}
    for call in round_three:
        context = context_text(call)
        assert MEMORY_EVIDENCE in context, f"{call['persona']} lost the evidence by round 3"
        assert MEMORY_CHALLENGE in context, f"{call['persona']} lost the unanswered challenge by round 3"

    concessions = {
        re.search(r"I concede that (.+?) \(point", m.text).group(1)
        for m in Message.objects.filter(debate=debate, text__contains="I concede that")
    }
    assert concessions, "the script makes the third persona concede"
    closings = [c for c in calls if "CONCESSIONS MADE IN THIS DEBATE" in context_text(c)]
    assert len(closings) == len(NAMES)
    for call in closings:
        missing = [c for c in concessions if c not in context_text(call)]
        assert not missing, f"{call['persona']}'s closing context misses concessions {missing}"
    assert set(PositionState.objects.get(debate=debate, persona__name="Cleo Central").concessions) == concessions


def test_epistemic_events_past_the_threshold_make_a_reflection_the_personas_then_see(
    scripted_api, personas, tmp_path, settings
):
    scripted_api(memory=True, dispute="none")
    settings.REFLECTION_THRESHOLD = 4  # one concession (x4) is enough
    trace = tmp_path / "trace.jsonl"
    debate = gold_debate_run(trace)
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    reflection = Reflection.objects.filter(debate=debate).earliest("created_at")
    assert reflection.kind == "pattern" and 1 <= reflection.importance <= 10
    assert reflection.source_message_ids
    assert set(reflection.source_message_ids) <= set(Message.objects.filter(debate=debate).values_list("id", flat=True))
    shown = [c for c in persona_contexts(trace) if f"• {reflection.content}" in context_text(c)]
    assert shown, "no persona was shown the reflection among the key insights"
    # each reflection consumed the events it reflected on
    assert Reflection.objects.filter(debate=debate).count() == debate.model_calls.filter(phase="reflection").count()
    assert BlackboardNotes.objects.get(debate=debate).epistemic_score < settings.REFLECTION_THRESHOLD


def test_a_malformed_ledger_extraction_is_retried_once_then_skipped_and_the_debate_goes_on(
    scripted_api, new_debate, caplog
):
    api, script = scripted_api(memory=True, dispute="none")
    respond = script.respond
    asked = []

    def broken_ledger(body, call):
        reply = respond(body, call)
        title = (body.get("output_config") or {}).get("format", {}).get("schema", {}).get("title")
        if title in ("LedgerDigest", "WindowDigest"):
            asked.append(body["messages"][0]["content"])  # a repair asks again after the same prompt
            return type(reply).json({"updates": [{"turn": "first", "overall_stance": 42}]})
        return reply

    api.responder = broken_ledger
    debate = new_debate(max_turns=6)
    caplog.set_level(logging.WARNING)

    from orchestration.run import debate_run

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    spoken = Message.objects.filter(debate=debate, status=Message.Status.COMPLETE).count()
    # Each digest tried, repaired once, then given up; its messages marked tried.
    assert set(Counter(asked).values()) == {2}, Counter(asked).values()
    assert len(set(asked)) >= -(-spoken // DIGEST_MESSAGES)  # a digest folds at most DIGEST_MESSAGES
    assert not Message.objects.filter(debate=debate, status=Message.Status.COMPLETE, ledgered=False).exists()
    assert "igest of" in caplog.text and "skipped" in caplog.text
    assert not PositionState.objects.filter(debate=debate).exclude(overall_stance="").exists()


def test_extraction_calls_and_their_cost_sit_beside_persona_calls(scripted_api, new_debate):
    scripted_api(memory=True, dispute="none")
    debate = new_debate(max_turns=6)

    from orchestration.run import debate_run

    debate_run(debate_id=debate.id)

    cost = debate_cost(debate_id=debate.id)
    by_role = cost["by_role"]
    assert by_role["persona"]["calls"] > 0 and by_role["extraction"]["calls"] > 0
    assert by_role["extraction"]["cost"] > 0
    assert cost["cost"] == sum(row["cost"] for row in by_role.values())
