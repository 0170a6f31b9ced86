import pytest

from devtools.fake_messages_api import Reply
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import Prompt, ProviderError, Role

pytestmark = pytest.mark.django_db

PROMPT = Prompt(system_prefix="rules", messages=[{"role": "user", "content": "hi"}])


def test_it_recovers_from_429_and_529_with_the_sdks_own_retries(fake_anthropic):
    fake_anthropic.script(Reply.rate_limited(), Reply.overloaded(), Reply.says("finally"))

    completion = gateway.generate(role=Role.PERSONA, prompt=PROMPT)

    assert completion.text == "finally"
    assert len(fake_anthropic.requests) == 3
    assert ModelCall.objects.count() == 1  # one logical call, retried inside the SDK


def test_streaming_also_recovers_from_an_overload(fake_anthropic):
    fake_anthropic.script(Reply.overloaded(), Reply.says("streamed after a retry"))

    completion = gateway.stream(role=Role.PERSONA, prompt=PROMPT, on_text=lambda piece: None)

    assert completion.text == "streamed after a retry"


def test_a_529_storm_ends_in_a_clear_provider_error(fake_anthropic, settings):
    settings.ANTHROPIC_MAX_RETRIES = 2
    gateway.reset_provider()
    fake_anthropic.script(*[Reply.overloaded() for _ in range(3)])

    with pytest.raises(ProviderError, match=r"overloaded \(HTTP 529\) after retries"):
        gateway.generate(role=Role.PERSONA, prompt=PROMPT)

    assert len(fake_anthropic.requests) == 3  # first try + 2 retries, and no second retry layer
    assert "529" in ModelCall.objects.get().error
