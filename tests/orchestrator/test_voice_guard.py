import re

import pytest

from debates.models import Message
from debates.turns import turn_kind
from devtools.fake_messages_api import Reply
from devtools.scripted_debate import FORBIDDEN_SAMPLE
from gateways.llm.models import ModelCall
from orchestration.run import debate_run
from tests.support.announcement_recorder import AnnouncementRecorder

pytestmark = pytest.mark.django_db(transaction=True)


def test_forbidden_phrases_never_reach_the_page(scripted_api, new_debate):
    _, script = scripted_api(dispute="none", forbidden_first_attempt=True, chunk_size=4)
    debate = new_debate(max_turns=6)

    with AnnouncementRecorder(debate.id) as recorder:
        debate_run(debate_id=debate.id)

    assert recorder.messages, "nothing was pushed to the page"
    assert "great point" not in recorder.pushed.lower()
    texts = list(Message.objects.filter(debate=debate).values_list("text", flat=True))
    assert texts and not any("great point" in text.lower() for text in texts)
    # Each persona's first draft used the phrase and was generated once more.
    persona_calls = ModelCall.objects.filter(debate=debate, role="persona").count()
    assert persona_calls == len(texts) + 3
    assert FORBIDDEN_SAMPLE in {p for persona in debate.personas.all() for p in persona.forbidden_phrases}


def test_a_phrase_that_survives_the_regeneration_is_cut_out():
    from orchestration.voice import clean_forbidden

    text = "That’s a great point, Bram. But the data says otherwise. I understand your perspective."

    cleaned = clean_forbidden(text, ["That's a great point", "I understand your perspective"], ["Bram Macro"])

    assert cleaned == "But the data says otherwise."  # nothing but the phrase (and an address): the sentence goes


RAMBLE = (
    "Gold is money. I made one. I made one. I made one. Savers lose to inflation. I made one. "
    "Central banks print. Bonds are return-free risk. Miners dilute. Vaults cost money. Yields matter. "
) * 6


def test_a_rambling_model_is_stopped_at_the_turns_length_and_its_repeats_never_shown(scripted_api, new_debate):
    api, script = scripted_api(dispute="none", chunk_size=6)
    respond = script.respond
    api.responder = lambda body, call: (
        Reply.says(RAMBLE, chunk_size=6, output_tokens=900) if body.get("stream") else respond(body, call)
    )
    debate = new_debate(max_turns=3)

    with AnnouncementRecorder(debate.id) as recorder:
        debate_run(debate_id=debate.id)

    messages = list(Message.objects.filter(debate=debate))
    assert messages
    for message in messages:
        sentences = [s for s in re.split(r"(?<=\.)\s+", message.text) if s]
        assert len(sentences) <= turn_kind(message.kind).sentence_limit, (message.kind, message.text)
        assert sentences.count("I made one.") <= 1, message.text
    openings = [m.text for m in messages if m.kind == "opening"]
    assert (
        openings[0]
        == "Gold is money. I made one. Savers lose to inflation. Central banks print. Bonds are return-free risk."
    )
    assert "Vaults cost money" not in recorder.pushed and "I made one. I made one" not in recorder.pushed
    # generation was cut short rather than run to the end (the full ramble is 900 tokens)
    calls = ModelCall.objects.filter(debate=debate, role="persona")
    assert calls and all(tokens < 100 for tokens in calls.values_list("output_tokens", flat=True))


def test_turn_shaping_keeps_distinct_sentences_up_to_the_limit():
    from orchestration.voice import said_enough, shape_turn

    assert shape_turn("A one. A one! B two? C three… D four.", 3) == "A one. B two? C three…"
    assert shape_turn("No full stop at the end", 2) == "No full stop at the end"
    assert shape_turn("One. Two. Unfinished thou", 3, final=False) == "One. Two. Unfinished thou"
    assert shape_turn("One. Two. Three. Unfinished thou", 3, final=False) == "One. Two. Three."
    assert shape_turn('He said "stop." Then left.', 1) == 'He said "stop."'
    assert not said_enough("One. Two. Three", 3) and said_enough("One. Two. Three. ", 3)
    assert said_enough("Same. Same. Same. Same. Same. Same. ", 3)  # looping without saying anything new
    # unpunctuated lines are sentences too, and keep their line breaks
    assert (
        shape_turn("You conceded: Yes\nYou conceded: Yes\nEvidence: none\n\nThird line\nFourth", 3)
        == "You conceded: Yes\nEvidence: none\nThird line"
    )
    # a word loop is collapsed, and it ends the generation
    assert shape_turn("The Hard-Money Max Max Max Max Max Max Max", 3) == "The Hard-Money Max"
    assert said_enough("The Hard-Money Max Max Max Max", 3) and not said_enough("It is very, very good", 3)
