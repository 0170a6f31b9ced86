"""A main channel going in circles is noticed and acted on through the real run loop: on to the
next aspect, then, on the last one, the discussion ends early with the reason in the chat and the
exports; also when every turn restates its speaker's point in new words (judged by the vectors the
in-debate memory gives each message, the offline embedder's here). A debate that keeps bringing
something new is not cut short."""

import time

import pytest
from django.core.management import call_command
from django.db import connections

from debates import fragments
from debates.exports import debate_markdown
from debates.models import Debate, Event, Message
from debates.payloads import EventKind
from debates.selectors import debate_view
from debates.turns import DIALOGUE_KINDS
from memory.models import InDebateMemory
from orchestration.circling import CIRCLING_TURNS

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Ada Hardmoney", "Bram Macro", "Cleo Central")
MAX_TURNS = 36  # two aspects (the script's plan) of eighteen dialogue turns


def debate_run() -> Debate:
    call_command(
        "rundebate",
        "--personas",
        ",".join(NAMES),
        "--topic",
        "Is gold still a store of value?",
        "--max-turns",
        str(MAX_TURNS),
    )
    return Debate.objects.get()


def dialogue_turns(debate):
    kinds = [str(kind) for kind in DIALOGUE_KINDS]
    return list(Message.objects.filter(debate=debate, room__isnull=True, kind__in=kinds).order_by("turn"))


def test_a_circling_channel_moves_on_then_ends_early_with_the_reason_shown(scripted_api, personas):
    scripted_api(circling=True, dispute="none")
    debate = debate_run()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason

    noticed = [e.payload for e in Event.objects.filter(debate=debate, kind=EventKind.CIRCLING_NOTICED).order_by("seq")]
    assert [(n["aspect_index"], n["action"]) for n in noticed] == [(0, "next_aspect"), (1, "ended")]
    said = dialogue_turns(debate)
    first_aspect = [m for m in said if m.aspect_index == 0]
    second_aspect = [m for m in said if m.aspect_index == 1]
    # Each side's three restatements are heard within the first six turns; from then on the
    # circle is noticed within CIRCLING_TURNS turns. On the next aspect nothing new is said at all.
    assert len(first_aspect) <= 6 + CIRCLING_TURNS < MAX_TURNS // 2
    assert len(second_aspect) == CIRCLING_TURNS
    assert len(said) < MAX_TURNS
    assert sum(n["slots_skipped"] for n in noticed) == MAX_TURNS - len(said)
    assert "restated the same disagreement" in noticed[1]["reason"]
    # The closings still close it.
    assert Message.objects.filter(debate=debate, kind=Message.Kind.CLOSING).count() == len(NAMES)

    view = debate_view(debate_id=debate.id)
    circling_items = [item for item in view.chat if item.kind == "circling"]
    assert [item.note["action"] for item in circling_items] == ["next_aspect", "ended"]
    results = fragments.for_event(
        view, EventKind.DEBATE_FINISHED, Event.objects.filter(debate=debate).latest("seq").payload
    )
    assert "The discussion ended early: " in results and "restated the same disagreement" in results
    markdown = debate_markdown(debate=debate, view=view)
    assert "Going in circles" in markdown and "ended the discussion early" in markdown


def test_a_debate_that_brings_something_new_each_turn_is_not_cut_short(scripted_api, personas):
    scripted_api(dispute="none")  # every reply cites the data on a new point
    debate = debate_run()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    assert not Event.objects.filter(debate=debate, kind=EventKind.CIRCLING_NOTICED).exists()
    assert len(dialogue_turns(debate)) == MAX_TURNS


def persona_calls_wait_for_vectors(api, timeout: float = 20) -> list[int]:
    """Each dialogue turn's persona call is answered once every main-channel message said so far
    has its vector: the embedding lane keeps up as it does beside a real model (seconds a turn),
    however loaded the machine. The run itself never waits for a vector (the circle is judged up
    to the newest turn that has one). Returns the turns whose call waited ``timeout`` in vain (it
    is answered then, and no later call waits): a turn's vector should come within seconds of it
    being said. The closings are not held: no turn recalls anything then, nothing is embedded."""
    answer = api.responder
    waited_in_vain: list[int] = []

    def waits(body, call):
        if call.role == "persona" and call.phase.startswith("dialogue") and not waited_in_vain:
            deadline = time.monotonic() + timeout
            try:
                while not all_said_embedded():
                    if time.monotonic() > deadline:
                        waited_in_vain.append(call.turn)
                        break
                    time.sleep(0.05)
            finally:
                connections.close_all()  # this server thread's own connection
        return answer(body, call)

    api.responder = waits
    return waited_in_vain


def all_said_embedded() -> bool:
    said = Message.objects.filter(room__isnull=True, status=Message.Status.COMPLETE).exclude(text="")
    embedded = InDebateMemory.objects.filter(message__in=said, embedding__isnull=False)
    return embedded.count() == said.count()


def test_a_circle_in_new_words_moves_on_then_ends_early_with_the_reason_shown(scripted_api, personas, offline):
    # Each turn restates its speaker's point in words of its own (DebateScript.CIRCLING_IN_NEW_WORDS).
    api, _ = scripted_api(circling=True, in_new_words=True, dispute="none")
    waited_in_vain = persona_calls_wait_for_vectors(api)
    debate = debate_run()
    assert debate.status == Debate.Status.COMPLETED, debate.failure_reason
    assert waited_in_vain == []  # each turn's vector was made before the next turn was asked for

    noticed = [e.payload for e in Event.objects.filter(debate=debate, kind=EventKind.CIRCLING_NOTICED).order_by("seq")]
    assert [(n["aspect_index"], n["action"]) for n in noticed] == [(0, "next_aspect"), (1, "ended")]
    said = dialogue_turns(debate)
    assert len(said) < MAX_TURNS
    assert sum(n["slots_skipped"] for n in noticed) == MAX_TURNS - len(said)
    assert all("restated the same disagreement" in n["reason"] for n in noticed)

    view = debate_view(debate_id=debate.id)
    assert [item.note["action"] for item in view.chat if item.kind == "circling"] == ["next_aspect", "ended"]
    results = fragments.for_event(
        view, EventKind.DEBATE_FINISHED, Event.objects.filter(debate=debate).latest("seq").payload
    )
    assert "The discussion ended early: " in results and "restated the same disagreement" in results
