"""Every request to the Messages API says what it is (X-Faultline-Call: role, phase, persona,
debate and the rest of its tag, ids only), for request logs and proxies; the scripted models answer
by it. The warm-up sends none."""

import pytest

from devtools.fake_messages_api import Call, Reply
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role

pytestmark = pytest.mark.django_db

PROMPT = Prompt(system_prefix="Be brief.", messages=[{"role": "user", "content": "Is gold a hedge?"}])


def test_a_streamed_turn_says_its_role_phase_persona_and_debate(fake_anthropic):
    from debates.models import Debate

    fake_anthropic.script(Reply.says("Gold is a hedge."))
    debate_id = Debate.objects.create(topic="Is gold a hedge?").id

    gateway.stream(
        role=Role.PERSONA,
        prompt=PROMPT,
        on_text=lambda text: None,
        tag=CallTag(debate_id=debate_id, persona="macro-bear", phase="opening"),
    )

    assert fake_anthropic.calls == [Call(role="persona", phase="opening", persona="macro-bear", debate=str(debate_id))]


def test_a_structured_call_and_its_repair_both_say_what_they_are_the_repair_as_a_second_attempt(fake_anthropic):
    from pydantic import BaseModel

    class Verdict(BaseModel):
        surfaced: bool

    fake_anthropic.script(Reply.says("not json"), Reply.json({"surfaced": True}))

    gateway.extract(role=Role.JUDGING, prompt=PROMPT, schema=Verdict, tag=CallTag(phase="crux_exit"))

    assert fake_anthropic.calls == [
        Call(role="judging", phase="crux_exit"),
        Call(role="judging", phase="crux_exit", attempt=2),
    ]


def test_a_name_that_is_not_ascii_arrives_whole(fake_anthropic):
    fake_anthropic.script(Reply.says("ok"))

    gateway.generate(role=Role.SYNTHESIS, prompt=PROMPT, tag=CallTag(persona="zoë; role=critic", phase="card"))

    assert fake_anthropic.calls == [Call(role="synthesis", phase="card", persona="zoë; role=critic")]


def test_a_call_with_no_tag_still_says_its_role(fake_anthropic):
    fake_anthropic.script(Reply.says("ok"))

    gateway.generate(role=Role.EXTRACTION, prompt=PROMPT)

    assert fake_anthropic.calls == [Call(role="extraction")]
