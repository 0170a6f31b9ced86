"""Passing a turn, end to end through the real loop: a persona with nothing to add answers PASS
(the scripted model keys on the call's persona and phase), the chat shows the pass, nothing of the
word reaches a message, and turn-taking moves on to someone else."""

import pytest
from django.template.loader import render_to_string

from debates.models import Debate, Event, Message
from debates.selectors import debate_view
from devtools.fake_messages_api import Call, Reply
from devtools.scripted_debate import DebateScript
from orchestration.run import debate_run
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)


class PassingScript(DebateScript):
    """The scripted debate, except that ``passer`` has nothing to add in the dialogue."""

    def __init__(self, passer: str, **options) -> None:
        super().__init__(**options)
        self.passer = passer

    def respond(self, body: dict, call: Call) -> Reply:
        if call.persona == self.passer and call.phase in ("dialogue_reply", "dialogue_key_argument"):
            return Reply.says("PASS")
        return super().respond(body, call)


def test_a_persona_with_nothing_to_add_passes_and_the_next_one_speaks(settings, personas, new_debate):
    bram = personas[1]
    with fake_messages_apis(settings, retries=1) as serve:
        serve(PassingScript(bram.persona_id, dispute="none").respond)
        debate = debate_run(debate_id=new_debate(max_turns=8).id)

    assert debate.status == Debate.Status.COMPLETED
    passes = list(Event.objects.filter(debate=debate, kind="turn_passed").order_by("seq"))
    assert passes and all(event.payload["persona_id"] == bram.id for event in passes)
    assert not Message.objects.filter(debate=debate, text__icontains="PASS").exists()
    # Turn-taking moved on: whoever passed does not have the floor again at once, and the others spoke.
    turns = [
        (event.kind, event.payload["persona_id"])
        for event in Event.objects.filter(debate=debate, kind__in=["message_started", "turn_passed"]).order_by("seq")
        if event.kind == "turn_passed" or event.payload["kind"] in ("key_argument", "reply")
    ]
    for (kind, persona_id), (_, next_persona_id) in zip(turns, turns[1:], strict=False):
        if kind == "turn_passed":
            assert next_persona_id != persona_id, turns
    spoke = {persona_id for kind, persona_id in turns if kind == "message_started"}
    assert spoke == {personas[0].id, personas[2].id}
    # A pass takes a dialogue slot: the budget is turns said plus turns passed.
    dialogue = Message.objects.filter(debate=debate, room__isnull=True, kind__in=["key_argument", "reply"]).count()
    assert dialogue + len(passes) == 8
    # The chat shows it, as the page and the replay draw it.
    view = debate_view(debate_id=debate.id)
    chat = render_to_string("debates/partials/chat_log.html", {"view": view, "oob": False})
    assert f"{bram.name} passes." in chat
