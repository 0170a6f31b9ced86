from dataclasses import replace

import pytest

from devtools.fake_messages_api import Reply
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import CallTag, Prompt, Role

pytestmark = pytest.mark.django_db

PROMPT = Prompt(
    system_prefix="You are the Macro Bear. Rules: speak plainly.",
    system="Turn type: reply (2-3 sentences).",
    messages=[{"role": "user", "content": "Is gold a hedge?"}],
    max_tokens=200,
)


def test_it_returns_text_and_records_usage(fake_anthropic):
    fake_anthropic.script(Reply.says("Gold is a hedge.", input_tokens=120, output_tokens=8, cache_read_tokens=900))

    completion = gateway.generate(role=Role.PERSONA, prompt=PROMPT, tag=CallTag(persona="macro-bear", phase="reply"))

    assert completion.text == "Gold is a hedge."
    call = ModelCall.objects.get(id=completion.call_id)
    assert (call.role, call.provider, call.persona, call.phase) == ("persona", "anthropic", "macro-bear", "reply")
    assert (call.input_tokens, call.output_tokens, call.cache_read_tokens) == (120, 8, 900)
    assert call.cost_usd > 0
    assert call.error == ""


# A persona contract as long as a real one (the seed personas' run to about 1,500 tokens).
LONG_PREFIX = "You are the Macro Bear. " + "You have watched four cycles of easy money end badly. " * 80


def test_it_marks_the_stable_prefix_for_prompt_caching(fake_anthropic):
    fake_anthropic.script(Reply.says("ok"))
    prompt = replace(PROMPT, system_prefix=LONG_PREFIX)

    gateway.generate(role=Role.PERSONA, prompt=prompt)

    system = fake_anthropic.requests[0]["system"]
    assert system[0] == {
        "type": "text",
        "text": LONG_PREFIX,
        "cache_control": {"type": "ephemeral"},
    }
    assert system[1] == {"type": "text", "text": PROMPT.system}
    assert "cache_control" not in system[1]


def test_a_prefix_below_the_models_minimum_gets_no_breakpoint(fake_anthropic):
    # The API ignores a breakpoint on a prefix shorter than the model's minimum cacheable length;
    # the same long prefix that caches on the persona model (Sonnet, 1,024) does not on Haiku (4,096).
    fake_anthropic.script(Reply.says("ok"), Reply.says("ok"))

    gateway.generate(role=Role.PERSONA, prompt=PROMPT)
    gateway.generate(role=Role.EXTRACTION, prompt=replace(PROMPT, system_prefix=LONG_PREFIX))

    assert all("cache_control" not in block for body in fake_anthropic.requests for block in body["system"])


def test_a_prompt_kept_for_an_hour_asks_for_the_hour_cache_and_is_priced_for_it(fake_anthropic):
    fake_anthropic.script(Reply.says("ok"), Reply.says("ok"))

    hour = gateway.generate(role=Role.PERSONA, prompt=replace(PROMPT, system_prefix=LONG_PREFIX, cache_ttl="1h"))
    five = gateway.generate(role=Role.PERSONA, prompt=replace(PROMPT, system_prefix=LONG_PREFIX + " "))

    assert fake_anthropic.requests[0]["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    written = [ModelCall.objects.get(id=c.call_id) for c in (hour, five)]
    assert written[0].cache_creation_tokens > 1024 and written[1].cache_creation_tokens > 1024
    assert written[0].cost_usd > written[1].cost_usd  # 2x the input price against 1.25x


def test_it_uses_the_model_configured_for_the_role(fake_anthropic, settings):
    fake_anthropic.script(Reply.says("ok"), Reply.says("ok"))

    gateway.generate(role=Role.PERSONA, prompt=PROMPT)
    gateway.generate(role=Role.JUDGING, prompt=PROMPT)

    models = [request["model"] for request in fake_anthropic.requests]
    assert models == [
        settings.FAULTLINE_MODELS["anthropic"]["persona"],
        settings.FAULTLINE_MODELS["anthropic"]["judging"],
    ]


def test_default_models_are_not_flagged_deprecated_by_the_sdk(settings):
    from anthropic.resources.messages.messages import DEPRECATED_MODELS

    for model in settings.FAULTLINE_MODELS["anthropic"].values():
        assert model not in DEPRECATED_MODELS


def test_a_contract_kept_for_the_hour_before_a_five_minute_exchange_is_priced_write_by_write(fake_anthropic):
    """The system prefix on the hour's cache, the exchange after it on five minutes': each write is
    billed at its own cache's rate, from the API's breakdown."""
    from gateways.llm.pricing import estimate_cost
    from gateways.llm.types import text_blocks

    fake_anthropic.script(Reply.says("ok"))
    exchange = "Ada said the record settles it. " * 40
    prompt = replace(
        PROMPT,
        system_prefix=LONG_PREFIX,
        prefix_cache_ttl="1h",
        messages=[{"role": "user", "content": text_blocks([exchange, "Your turn."], cache_after={0})}],
    )

    completion = gateway.generate(role=Role.PERSONA, prompt=prompt)

    body = fake_anthropic.requests[0]
    assert body["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "1h"}
    assert body["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    call = ModelCall.objects.get(id=completion.call_id)
    hour = -(-len(LONG_PREFIX) // 4)
    assert call.cache_creation_tokens > hour  # the contract and the exchange written
    billed = dict(model=call.model, input_tokens=call.input_tokens, output_tokens=call.output_tokens)
    split = estimate_cost(**billed, cache_creation_tokens=call.cache_creation_tokens, cache_creation_1h_tokens=hour)
    assert call.cost_usd == split
    assert estimate_cost(**billed, cache_creation_tokens=call.cache_creation_tokens) < split
    assert split < estimate_cost(**billed, cache_creation_tokens=call.cache_creation_tokens, cache_ttl="1h")
