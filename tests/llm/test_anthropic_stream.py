import pytest

from devtools.fake_messages_api import Reply
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.types import Prompt, ProviderError, Role

pytestmark = pytest.mark.django_db

PROMPT = Prompt(system_prefix="You are a persona.", messages=[{"role": "user", "content": "Open."}])


def test_it_streams_text_in_pieces(fake_anthropic):
    text = "Scarcity is not a feature you can vote away. The supply schedule is the point."
    fake_anthropic.script(Reply.says(text, chunk_size=10, output_tokens=17))
    pieces = []

    completion = gateway.stream(role=Role.PERSONA, prompt=PROMPT, on_text=pieces.append)

    assert len(pieces) == 8
    assert "".join(pieces) == text == completion.text
    call = ModelCall.objects.get(id=completion.call_id)
    assert call.streamed and call.output_tokens == 17
    assert fake_anthropic.requests[0]["stream"] is True


def test_an_error_mid_stream_is_a_provider_error_and_is_recorded(fake_anthropic):
    fake_anthropic.script(Reply.says("This will not finish", fail_mid_stream=True))

    with pytest.raises(ProviderError):
        gateway.stream(role=Role.PERSONA, prompt=PROMPT, on_text=lambda piece: None)

    assert ModelCall.objects.get().error != ""


def test_the_caller_can_stop_the_stream_once_it_has_enough(fake_anthropic):
    text = "One. Two. Three. Four. Five. Six. Seven. Eight. Nine. Ten. " * 4
    fake_anthropic.script(Reply.says(text, chunk_size=5, output_tokens=400))
    pieces = []

    def take_three(piece):
        pieces.append(piece)
        return len(pieces) >= 3

    completion = gateway.stream(role=Role.PERSONA, prompt=PROMPT, on_text=take_three)

    assert completion.text == "".join(pieces) == text[:15]
    assert completion.stop_reason == "stop_requested"
    call = ModelCall.objects.get(id=completion.call_id)
    assert call.error == "" and 4 <= call.output_tokens < 400  # counted from what was generated
