"""The owner's interjection in an Analyst/Critic debate, posted while it pauses between rounds: the
next round reads it as its guidance (both roles' prompts show it), the role it is addressed to
answers it in that round, and the position ledger records it."""

import pytest

from debates.blackboard.models import PositionState
from debates.models import Debate, Interjection, Message
from debates.selectors import debate_view
from debates.services.interjections import InterjectionDraft, interjection_post
from debates.services.lifecycle import debate_continue
from devtools.fake_messages_api import user_text
from orchestration.run import debate_run
from tests.analyst_critic.conftest import (
    ANALYST_MODEL,
    CRITIC_MODEL,
    NEVER_AGREES,
    STEP_BY_STEP,
    CriticScript,
)
from tests.support.fake_anthropic import fake_messages_apis

pytestmark = pytest.mark.django_db(transaction=True)
ASKED = "Do the fees still matter when they fall below 0.1 percent?"


def test_an_interjection_posted_during_a_pause_is_the_guidance_of_the_next_round(critic_api, new_ac_debate):
    script = critic_api(STEP_BY_STEP)
    debate = debate_run(debate_id=new_ac_debate(max_rounds=5, auto_continue=False).id)
    assert debate.status == Debate.Status.PAUSED

    interjection = interjection_post(debate=debate, draft=InterjectionDraft(text=ASKED, to_name="Critic"))
    assert not any(ASKED in user_text(body) for body in script.requests)  # nothing reads it while paused
    debate_continue(debate=debate, enqueue=False)
    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.PAUSED  # after round 2
    reading = [body for body in script.requests if ASKED in user_text(body)]
    assert len(reading) == 2  # round 2's analysis and critique: its guidance
    assert all("Round 2." in user_text(body) and "THE OWNER INTERJECTS" in user_text(body) for body in reading)
    interjection.refresh_from_db()
    critique = Message.objects.get(debate=debate, turn=4)
    assert critique.kind == Message.Kind.CRITIQUE and interjection.answer == critique
    assert interjection.read_at_turn == 3  # read at the start of round 2
    critic = critique.persona
    assert any(ASKED in c for c in PositionState.objects.get(debate=debate, persona=critic).unanswered_challenges)
    assert debate_view(debate_id=debate.id).interjections[0].answered_by == critic.name

    debate_continue(debate=debate, enqueue=False)
    debate = debate_run(debate_id=debate.id)
    assert Interjection.objects.get(pk=interjection.pk).answer == critique  # read once, answered once
    assert len([body for body in script.requests if ASKED in user_text(body)]) == 2


def test_an_interjection_only_the_synthesis_hears_is_answered_by_it(settings, new_ac_debate):
    """Posted to the Critic while the last round runs, it is read by the synthesis alone: the
    synthesis answers it, whoever it was addressed to."""
    debate = new_ac_debate(max_rounds=1, auto_continue=False)
    script = CriticScript(NEVER_AGREES)
    posted = []

    def respond(body, call):
        if call.role == "critic" and not posted:  # round 1 (the last) has begun
            posted.append(interjection_post(debate=debate, draft=InterjectionDraft(text=ASKED, to_name="Critic")))
        return script.respond(body, call)

    models = {"analyst": ANALYST_MODEL, "critic": CRITIC_MODEL}
    with fake_messages_apis(settings, retries=0, models=models) as serve:
        serve(respond)
        debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    synthesis = Message.objects.get(debate=debate, kind=Message.Kind.SYNTHESIS)
    assert Interjection.objects.get(pk=posted[0].pk).answer == synthesis
    reading = [body for body in script.requests if ASKED in user_text(body) or ASKED in str(body.get("system"))]
    assert len(reading) == 1  # the synthesis's prompt alone
