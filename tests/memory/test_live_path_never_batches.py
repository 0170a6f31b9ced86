"""A debate's own calls are never batched: its turns, side work and end (memory included) go to
the Messages API directly, at full price, while a batch is waiting for nothing (gateways/llm/batches.py
is for work nobody waits on). Memory at a debate's end makes no model call at all (memory/extraction.py
reads the ledger and the crux cards), so it lands the same insights whatever the provider batches."""

import pytest

from debates.models import Debate
from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from memory.models import Insight
from tests.memory.conftest import AGREED_POINT, DECISION
from tests.memory.test_recall_across_debates import rundebate

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_scripted_debate_sends_no_batch_and_pays_full_price_for_every_call(memory_api, personas, tmp_path):
    rundebate(tmp_path / "trace.jsonl", topic="Should central banks hold more gold?")
    debate = Debate.objects.get()

    assert memory_api.calls and memory_api.batches == {} and memory_api.batched == []
    priced = ModelCall.objects.filter(debate=debate).exclude(role="embedding")
    assert priced.count() == len(memory_api.calls)
    for call in priced:
        assert call.cost_usd == estimate_cost(
            model=call.model,
            input_tokens=call.input_tokens,
            output_tokens=call.output_tokens,
            cache_creation_tokens=call.cache_creation_tokens,
            cache_read_tokens=call.cache_read_tokens,
        ), call
    saved = {(i.kind, i.text) for i in Insight.objects.filter(debate=debate)}
    assert {("agreed", AGREED_POINT), ("decision", DECISION)} <= saved
