"""The owner's interjection in a dialogue debate, through the real loop and the scripted model: the
persona it is addressed to answers it next, the answer is an ``answer`` turn that shows the
interjection in its prompt, the position ledger records it, and the log says which turn answered."""

import itertools
import json
import threading
import time

import pytest
from django.db import connection

from debates.blackboard.models import PositionState
from debates.exports import debate_json
from debates.models import Debate, Event, Interjection, Message
from debates.selectors import debate_events, debate_view
from debates.services.interjections import InterjectionDraft, interjection_post
from devtools.fake_messages_api import user_text
from devtools.scripted_debate import ANSWER_OPENING
from orchestration.run import debate_run
from tests.support.fake_anthropic import persona_call_waits

pytestmark = pytest.mark.django_db(transaction=True)


def _main_turns(debate):
    return list(Message.objects.filter(debate=debate, room__isnull=True).order_by("turn").select_related("persona"))


def test_an_interjection_to_one_persona_is_answered_by_that_persona_next(scripted_api, new_debate, personas):
    api, _ = scripted_api(dispute="none")
    debate = new_debate(max_turns=4)
    cleo = personas[2]
    interjection_post(
        debate=debate, draft=InterjectionDraft(text="What would change your mind about gold?", to_name="Cleo")
    )

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    turns = _main_turns(debate)
    first_dialogue = turns[3]  # after the three openings
    assert first_dialogue.kind == Message.Kind.ANSWER and first_dialogue.persona == cleo
    assert first_dialogue.text.startswith(ANSWER_OPENING)
    interjection = Interjection.objects.get(debate=debate)
    assert interjection.answer == first_dialogue and interjection.read_at_turn == first_dialogue.turn
    # Its prompt shows the interjection as something to answer (the call tagged as the answer's).
    answer_calls = [r for r, c in zip(api.requests, api.calls, strict=True) if c.phase == "dialogue_answer"]
    assert len(answer_calls) == 1
    prompt = user_text(answer_calls[0])
    assert "THE OWNER INTERJECTS" in prompt and "What would change your mind about gold?" in prompt
    # The ledger recorded it as a question put to Cleo.
    state = PositionState.objects.get(debate=debate, persona=cleo)
    assert any("What would change your mind about gold?" in c for c in state.unanswered_challenges) or any(
        "owner asks" in c for a in state.aspect_positions.values() for c in a.get("challenged", [])
    )
    # One event log, numbered, the interjection before its answer.
    kinds = list(Event.objects.filter(debate=debate).order_by("seq").values_list("kind", flat=True))
    assert kinds.index("interjection_posted") < kinds.index("interjection_answered")
    view = debate_view(debate_id=debate.id)
    assert view.interjections[0].answered_by == cleo.name
    assert view.interjections[0].answer_message_id == first_dialogue.id
    exported = json.loads(debate_json(debate=debate, events=debate_events(debate_id=debate.id)))
    listed = exported["summary"]["interjections"][0]
    assert (listed["text"], listed["to_name"], listed["answered_by"]) == (
        "What would change your mind about gold?",
        cleo.name,
        cleo.name,
    )


def _post_once(debate_id, after_messages: int, done: threading.Event, text: str) -> None:
    """From another thread (another connection), as the owner's form would: post mid-debate."""
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if Message.objects.filter(debate_id=debate_id, status="complete").count() >= after_messages:
                interjection_post(debate=Debate.objects.get(pk=debate_id), draft=InterjectionDraft(text=text))
                return
            time.sleep(0.01)
    finally:
        connection.close()
        done.set()


def test_an_interjection_posted_mid_run_is_picked_up_from_the_database(scripted_api, new_debate):
    api, _ = scripted_api(dispute="none")
    posted = threading.Event()
    persona_call_waits(api, 5, posted)  # the turn under way when the interjection is posted
    debate = new_debate(max_turns=6)
    threading.Thread(target=_post_once, args=(debate.id, 4, posted, "Is the 1970s data still relevant?")).start()

    debate = debate_run(debate_id=debate.id)
    posted.wait(10)

    interjection = Interjection.objects.get(debate=debate)
    assert interjection.answer is not None
    assert interjection.answer.kind == Message.Kind.ANSWER
    answered = interjection.answer.turn
    # Nobody spoke between the post and the turn that answered it but the turn already under way.
    after_post = [m.turn for m in _main_turns(debate) if m.created_at > interjection.created_at]
    assert answered in after_post[:2]
    assert Message.objects.filter(debate=debate, kind=Message.Kind.ANSWER).count() == 1


def test_an_answer_cut_off_by_a_dead_worker_is_said_again_as_the_answer(scripted_api, new_debate, personas):
    """The run that follows a dead one says the cut-off answer again, into its row, with the
    interjection in its prompt, and links the two; no other turn answers it."""
    import os
    import signal
    import subprocess
    import sys

    from django.conf import settings as django_settings

    from tests import conftest as suite

    api, _ = scripted_api(dispute="none")
    answer = api.responder
    answers = itertools.count(1)

    def first_answer_trickles(body, call):
        # Every turn comes at once but the first attempt at the answer, which trickles in (four
        # characters a second), so the kill below lands on it half-written.
        reply = answer(body, call)
        if call.phase == "dialogue_answer" and next(answers) == 1:
            reply.chunk_size, reply.chunk_delay = 4, 1.0
        return reply

    api.responder = first_answer_trickles
    debate = new_debate(max_turns=4)
    interjection_post(debate=debate, draft=InterjectionDraft(text="Is gold a hedge at all?", to_name="Bram"))
    env = {
        **os.environ,
        "DATABASE_URL": suite.test_database_url(connection.settings_dict, django_settings.DATABASE_URL),
        "FAULTLINE_LLM": "anthropic",
        "ANTHROPIC_API_KEY": "test-key",
        "ANTHROPIC_BASE_URL": api.url,
        "DJANGO_SETTINGS_MODULE": "faultline.settings",
    }
    worker = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import django; django.setup(); from orchestration.run import debate_run; "
            f"debate_run(debate_id='{debate.id}')",
        ],
        cwd=suite.ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90
    answering = Message.objects.filter(debate=debate, kind=Message.Kind.ANSWER, status="streaming").exclude(text="")
    while not answering.exists():
        assert worker.poll() is None and time.monotonic() < deadline, "the answer was never caught mid-stream"
        time.sleep(0.01)
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait()
    cut_off = Message.objects.get(debate=debate, status="streaming")

    debate = debate_run(debate_id=debate.id)

    assert debate.status == Debate.Status.COMPLETED
    cut_off.refresh_from_db()
    assert cut_off.status == "complete" and cut_off.kind == Message.Kind.ANSWER and cut_off.persona == personas[1]
    assert cut_off.text.startswith(ANSWER_OPENING)
    assert Interjection.objects.get(debate=debate).answer == cut_off
    assert Message.objects.filter(debate=debate, kind=Message.Kind.ANSWER).count() == 1
    said_again = [r for r, c in zip(api.requests, api.calls, strict=True) if c.phase == "dialogue_answer"][-1]
    assert "Is gold a hedge at all?" in user_text(said_again)
