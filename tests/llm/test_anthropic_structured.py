from typing import Literal

import pytest
from pydantic import BaseModel

from devtools.fake_messages_api import Reply
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import Prompt, Role, StructuredOutputError
from tests.support.spend import debate_cost

pytestmark = pytest.mark.django_db


class CruxCheck(BaseModel):
    surfaced: bool
    question: str
    kind: Literal["horizon", "evidence", "values"]


PROMPT = Prompt(system_prefix="You judge crux rooms.", messages=[{"role": "user", "content": "Has it surfaced?"}])
GOOD = {"surfaced": True, "question": "Is gold a hedge?", "kind": "evidence"}


def test_it_returns_a_validated_object_and_sends_the_schema(fake_anthropic):
    fake_anthropic.script(Reply.json(GOOD))

    result = gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=CruxCheck)

    assert result == CruxCheck(**GOOD)
    output_format = fake_anthropic.requests[0]["output_config"]["format"]
    assert output_format["type"] == "json_schema"
    assert output_format["schema"]["properties"]["kind"]["enum"] == ["horizon", "evidence", "values"]
    assert output_format["schema"]["additionalProperties"] is False


def test_it_repairs_malformed_output_once(fake_anthropic):
    fake_anthropic.script(Reply.says('{"surfaced": "maybe"'), Reply.json(GOOD))

    result = gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=CruxCheck)

    assert result.surfaced is True
    repair_messages = fake_anthropic.requests[1]["messages"]
    assert repair_messages[-2] == {"role": "assistant", "content": '{"surfaced": "maybe"'}
    assert "not valid" in repair_messages[-1]["content"]
    assert ModelCall.objects.count() == 2


def test_a_raw_newline_inside_a_string_is_accepted_without_a_repair_call(fake_anthropic):
    fake_anthropic.script(Reply.says('{"surfaced": true, "question": "Is gold\na hedge?\t", "kind": "evidence"}'))

    result = gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=CruxCheck)

    assert result.question == "Is gold\na hedge?\t"
    assert ModelCall.objects.count() == 1


def test_malformed_output_twice_is_a_clear_typed_error(fake_anthropic):
    fake_anthropic.script(Reply.json({"surfaced": True}), Reply.says("I think yes!"))

    with pytest.raises(StructuredOutputError, match="CruxCheck: the model's output did not match the schema"):
        gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=CruxCheck)


def test_truncated_output_is_retried_then_rejected(fake_anthropic):
    fake_anthropic.script(Reply.truncated('{"surfaced": true, "quest'), Reply.truncated('{"surfaced": tr'))

    with pytest.raises(StructuredOutputError, match="cut off at the token limit"):
        gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=CruxCheck)


def test_a_debates_cost_is_one_query_away(fake_anthropic, django_assert_num_queries):
    from debates.models import Debate

    debate = Debate.objects.create(topic="Is gold a hedge?")
    fake_anthropic.script(
        Reply.says("a", input_tokens=1000, output_tokens=100),
        Reply.json(GOOD, input_tokens=500, output_tokens=50),
    )
    tag = gateway.CallTag(debate_id=debate.id)
    gateway.generate(role=Role.PERSONA, prompt=PROMPT, tag=tag)
    gateway.extract(role=Role.EXTRACTION, prompt=PROMPT, schema=CruxCheck, tag=tag)

    totals = debate_cost(debate_id=debate.id)

    assert totals["calls"] == 2
    assert totals["input_tokens"] == 1500 and totals["output_tokens"] == 150
    assert totals["cost"] == sum(call.cost_usd for call in ModelCall.objects.filter(debate=debate))
    assert set(totals["by_role"]) == {"persona", "extraction"}
