"""Structured calls nobody waits on go through the Message Batches API (half price) with the real
SDK against the fake Messages API; each answer lands in the ledger, batch-priced, and parses like a
direct call's; whatever the batch does not answer is made directly."""

from decimal import Decimal

import pytest
from pydantic import BaseModel

from devtools.fake_messages_api import Reply
from gateways.llm import batches
from gateways.llm.batches import BatchCall
from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from gateways.llm.types import CallTag, Prompt, Role

pytestmark = pytest.mark.django_db

FAST = {"poll_seconds": 0.01, "max_wait": 5}


class Verdict(BaseModel):
    holds: bool
    why: str


def calls(count: int, phase: str = "memory") -> list[BatchCall]:
    return [
        BatchCall(
            role=Role.EXTRACTION,
            prompt=Prompt(system_prefix="You judge claims.", messages=[{"role": "user", "content": f"Claim {n}"}]),
            schema=Verdict,
            tag=CallTag(phase=phase, persona=f"p{n}"),
        )
        for n in range(count)
    ]


def test_every_call_goes_in_one_batch_and_is_recorded_at_the_batch_price(fake_anthropic, settings):
    fake_anthropic.responder = lambda body, call: Reply.json(
        {"holds": call.role == "extraction" and call.phase == "memory", "why": body["messages"][-1]["content"]},
        output_tokens=40,
    )
    fake_anthropic.batch_polls = 2
    statuses = []

    results = batches.extract_batch(calls(3), what="test batch", on_status=statuses.append, **FAST)

    assert [r.why for r in results] == ["Claim 0", "Claim 1", "Claim 2"]
    assert all(r.holds for r in results)  # the fake read role and phase from the custom_id
    assert len(fake_anthropic.batched) == 3
    assert [c["params"]["output_config"]["format"]["type"] for c in fake_anthropic.batched] == ["json_schema"] * 3
    rows = list(ModelCall.objects.order_by("id"))
    assert [(r.role, r.phase, r.persona, r.error) for r in rows] == [
        ("extraction", "memory", f"p{n}", "") for n in range(3)
    ]
    for row in rows:
        full = estimate_cost(model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens)
        assert full > 0
        assert row.cost_usd == estimate_cost(
            model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens, batched=True
        )
        assert row.cost_usd <= full * Decimal("0.5") + Decimal("0.000001")
    assert statuses[0].startswith("batched: 3 calls waiting") and statuses[-1] == "done"


def test_an_errored_or_expired_request_is_made_directly_and_nothing_is_lost(fake_anthropic):
    fake_anthropic.script(Reply.json({"holds": True, "why": "batched"}), Reply.overloaded(), Reply.expired())
    fake_anthropic.responder = lambda body, call: Reply.json({"holds": False, "why": "direct"})

    results = batches.extract_batch(calls(3), what="test batch", **FAST)

    assert [r.why for r in results] == ["batched", "direct", "direct"]
    assert len(fake_anthropic.batched) == 3
    assert len(fake_anthropic.requests) == 5  # three answered in the batch, two made again
    rows = list(ModelCall.objects.order_by("id"))
    assert len(rows) == 3
    batched_row, *direct_rows = rows
    assert batched_row.cost_usd == estimate_cost(
        model=batched_row.model,
        input_tokens=batched_row.input_tokens,
        output_tokens=batched_row.output_tokens,
        batched=True,
    )
    for row in direct_rows:
        assert row.cost_usd == estimate_cost(
            model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens
        )


def test_a_batched_answer_off_schema_gets_the_same_single_repair_as_a_direct_call(fake_anthropic):
    fake_anthropic.script(Reply.says('{"holds": "maybe"'), Reply.json({"holds": True, "why": "repaired"}))

    (result,) = batches.extract_batch(calls(1), what="test batch", **FAST)

    assert result == Verdict(holds=True, why="repaired")
    repair = fake_anthropic.requests[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"holds": "maybe"'}
    assert ModelCall.objects.count() == 2


def test_a_batch_past_its_wait_is_canceled_and_its_calls_made_directly(fake_anthropic):
    fake_anthropic.batch_polls = 10_000  # never ends by itself
    fake_anthropic.responder = lambda body, call: Reply.json({"holds": True, "why": "direct"})

    results = batches.extract_batch(calls(2), what="test batch", poll_seconds=0.01, max_wait=0.05)

    assert [r.why for r in results] == ["direct", "direct"]
    assert next(iter(fake_anthropic.batches.values())).status == "ended"  # canceled: not billed twice
    assert ModelCall.objects.count() == 2


def test_the_offline_model_keeps_the_direct_path(settings):
    settings.FAULTLINE_LLM = "local"
    from gateways.llm import gateway

    gateway.reset_provider()
    try:
        assert not batches.batching_available()
    finally:
        gateway.reset_provider()
