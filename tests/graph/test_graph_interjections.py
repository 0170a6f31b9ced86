"""The owner's interjection in a graph-mode debate: the persona it is addressed to answers it next,
and the moderator (the crystallizer) reads it with the turns it maps, like any other move."""

import pytest

from debates.models import Debate, Interjection, Message
from debates.services.interjections import InterjectionDraft, interjection_post
from debates.services.lifecycle import debate_create
from devtools.fake_messages_api import user_text
from orchestration.run import debate_run

pytestmark = pytest.mark.django_db(transaction=True)
BROUGHT = "Gold lost 60 percent of its real value between 1980 and 2001"


@pytest.mark.original_prompts  # reads the crystallizer's prompt as worded
def test_the_moderator_maps_an_interjection_with_the_turn_that_answers_it(scripted_api, personas):
    api, _ = scripted_api()
    debate = debate_create(owner=None, topic="Is hard money the future?", personas=personas, max_turns=10, mode="graph")
    interjection_post(
        debate=debate,
        draft=InterjectionDraft(text=BROUGHT, kind="evidence", link="https://example.org/gold", to_name="Ada"),
    )

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    interjection = Interjection.objects.get(debate=debate)
    answer = interjection.answer
    assert answer.kind == Message.Kind.ANSWER and answer.persona == personas[0]
    assert answer.turn == 4  # the first dialogue turn, after the three openings
    crystallizations = [r for r, c in zip(api.requests, api.calls, strict=True) if c.phase == "crystallization"]
    mapping = [body for body in crystallizations if BROUGHT in user_text(body)]
    assert len(mapping) == 1  # read once, with the window that holds its answer
    text = user_text(mapping[0])
    assert "THE OWNER'S INTERJECTIONS" in text and "[before turn 4] The owner (evidence, to Ada Hardmoney)" in text
    assert f"[turn 4] {personas[0].name}:" in text
