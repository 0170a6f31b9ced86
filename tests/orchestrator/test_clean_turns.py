"""Clean turns: a forbidden phrase is cut and what its sentence says is kept (a sentence with
nothing else goes), no placeholder ever stands in for a turn, and degenerate ledger text never
goes back into a persona's prompt."""

import pytest

from debates import fragments
from debates.blackboard.ledger_text import is_degenerate
from debates.blackboard.models import PositionState
from debates.blackboard.schemas import PositionUpdate
from debates.blackboard.updates import apply_update
from debates.models import Event, Message
from debates.payloads import EventKind
from debates.selectors import debate_events, debate_view
from debates.services.messages import message_begin, message_text_save
from debates.state import DebateView, apply
from devtools.fake_messages_api import Reply
from orchestration.context import assemble_context
from orchestration.run import debate_run
from orchestration.speaking import Speaker, TurnRequest, speak
from orchestration.voice import clean_forbidden

FORBIDDEN = ["That's a great point", "I understand your perspective", "to be honest"]
NAMES = ["Bram Macro", "Cleo Central"]


@pytest.mark.parametrize(
    "said, kept",
    [
        # at the start of a sentence, with the persona's name after it: nothing else, it goes
        ("That's a great point, Bram. But the 1970s data says otherwise.", "But the 1970s data says otherwise."),
        # at the end of the sentence that holds it, which then says nothing: it goes
        (
            "My answer to the debate question is that's a great point. That is where I stand.",
            "That is where I stand.",
        ),
        # in the middle, curly apostrophe, other case: an aside and a name, nothing else
        (
            "Rates matter. Still, THAT’S A GREAT POINT about savers, Cleo! Gold keeps its value.",
            "Rates matter. Gold keeps its value.",
        ),
        # inside a quote, with the quote's own full stop
        (
            'Bram keeps telling me "that\'s a great point." I never believed him. Bonds lose to inflation.',
            "I never believed him. Bonds lose to inflation.",
        ),
        # two different phrases in two sentences: the answer after the second is kept
        (
            "I understand your perspective. Central banks misjudged 2021? To be honest, I doubt it.",
            "Central banks misjudged 2021? I doubt it.",
        ),
        # no sentence end at all: what the sentence says is kept
        (
            "well to be honest the numbers favour my side and always have",
            "well the numbers favour my side and always have",
        ),
        # every sentence holds one and says nothing else
        ("That's a great point, truly. I understand your perspective, Bram.", ""),
        # the unfinished last sentence keeps what it says
        ("Gold is money. Savers know it, to be honest", "Gold is money. Savers know it"),
        # a line break is kept between the lines that stay
        ("Gold is money.\nThat's a great point, though.\nSavers know it.", "Gold is money.\nSavers know it."),
        # decoys: the words apart, or inside a longer word, are not the phrase
        (
            "That's a great pointer to the data. Honesty matters; being honest is rare.",
            "That's a great pointer to the data. Honesty matters; being honest is rare.",
        ),
    ],
)
def test_a_forbidden_phrase_is_cut_and_what_its_sentence_says_is_kept(said, kept):
    assert clean_forbidden(said, FORBIDDEN, NAMES) == kept


@pytest.mark.parametrize(
    "text",
    [
        "No, no, no, no",
        "no no no no no no",
        "",
        "   ",
        "...",
        "{{stance}}",
        "My stance is {overall_stance}",
        "[insert position here]",
        "As an AI, I don't hold positions on monetary policy.",
        "As a language model I cannot say.",
        "I’m sorry, but I can't determine the speaker's stance.",
        "N/A",
        "None.",
        "You've argued: gold wins",
        "Gold protects savers, gold protects savers, gold protects savers",
        "Gold protects savers. Gold protects savers.",
        "Rates decide it, and rates decide it.",
        "the data the data the data shows",
    ],
)
def test_degenerate_ledger_text_is_caught(text):
    assert is_degenerate(text)


@pytest.mark.parametrize(
    "text",
    [
        "No: gold has lost to equities over every 30-year window since 1971.",
        "No, not as a hedge; yes, as insurance against a currency crisis.",
        "It depends on real rates, very, very much.",
        "Gold protects savers over decades, whatever the quarter says.",
        "Central banks misjudged 2021 but corrected course in 2022.",
        "Gold at $2,000 an ounce is priced for fear, not for use.",
        "Yes.",
        "Bonds beat gold when real yields are above 2%; below that, gold wins.",
        "She conceded that short-run inflation hurts savers.",
        "Rates matter, and rates matter more than history.",
    ],
)
def test_healthy_ledger_text_passes(text):
    assert not is_degenerate(text)


def test_a_degenerate_stance_never_replaces_the_last_good_one():
    state = {"overall_stance": "Gold protects savers over decades.", "concessions": []}
    update = PositionUpdate.model_validate(
        {"overall_stance": "No, no, no, no", "concession": "{{concession}}", "importance": 3}
    )

    change = apply_update(state=state, update=update, speaker_id=1, participants={}, aspect_index=0, round_number=1)

    assert change.speaker["overall_stance"] == "Gold protects savers over decades."
    assert change.speaker["concessions"] == []


@pytest.mark.django_db
def test_degenerate_ledger_text_is_never_fed_back_into_a_prompt(new_debate, personas):
    debate = new_debate()
    debate.aspects = [{"label": "Evidence", "description": "What the record shows."}]
    debate.save()
    ada, bram = personas[0], personas[1]
    PositionState.objects.create(
        debate=debate,
        persona=ada,
        overall_stance="No, no, no, no, no",
        concessions=["As an AI, I cannot concede anything.", "short-run inflation hurts savers"],
        aspect_positions={"0": {"position": "{{aspect_position}}", "evidence": ["", "the 1970s gold price data"]}},
    )
    PositionState.objects.create(debate=debate, persona=bram, overall_stance="Real rates decide it, not history.")

    mine = assemble_context(debate=debate, persona=ada, phase="reply", aspect_index=0, addressee="Bram Macro")
    theirs = assemble_context(debate=debate, persona=bram, phase="reply", aspect_index=0, addressee="Ada Hardmoney")

    for context in (mine, theirs):
        assert "No, no, no" not in context and "{{" not in context and "As an AI" not in context
    assert "You've argued" not in mine  # nothing fit to say there
    assert "short-run inflation hurts savers" in mine and "the 1970s gold price data" in mine
    assert "Real rates decide it, not history." in mine


# ── a turn through the fake Messages API ────────────────────────────────────────────────────


def fragments_by_event(debate) -> list[tuple[str, str]]:
    """What the live page is sent for each event of the debate's log."""
    view, sent = DebateView(debate_id=str(debate.id)), []
    for seq, kind, payload in debate_events(debate_id=debate.id):
        apply(view, seq, kind, payload)
        sent.append((kind, fragments.for_event(view, kind, payload)))
    return sent


def _speak(debate, persona, interrupted=None, **extra):
    request = TurnRequest(
        Speaker(persona, seat=0),
        extra.pop("kind", Message.Kind.OPENING),
        phase="opening",
        context="Give your opening statement on the topic: 3-5 sentences.",
        turn=extra.pop("turn", 1),
        **extra,
    )
    return speak(debate, request, interrupted=interrupted)


@pytest.mark.django_db(transaction=True)
def test_a_phrase_said_in_both_drafts_leaves_whole_sentences(fake_anthropic, new_debate, personas):
    slip = "My answer to the debate question is that's a great point. That is where I stand. Gold keeps value."
    fake_anthropic.script(Reply.says(slip), Reply.says(slip))
    debate = new_debate()

    message = _speak(debate, personas[0])

    message.refresh_from_db()
    assert message.text == "That is where I stand. Gold keeps value."
    assert len([r for r in fake_anthropic.requests if r.get("stream")]) == 2


@pytest.mark.django_db(transaction=True)
def test_a_reply_of_nothing_but_prompt_echoes_is_asked_for_again(fake_anthropic, new_debate, personas):
    echo = "YOUR POSITION SO FAR\nYou've argued: gold wins"
    fake_anthropic.script(Reply.says(echo), Reply.says("Gold has kept its value for three thousand years."))
    debate = new_debate()

    message = _speak(debate, personas[0])

    assert message.text == "Gold has kept its value for three thousand years."
    assert list(Message.objects.filter(debate=debate).values_list("text", flat=True)) == [message.text]


@pytest.mark.django_db(transaction=True)
def test_a_turn_that_says_nothing_twice_is_no_message_and_no_placeholder(fake_anthropic, new_debate, personas):
    fake_anthropic.script(Reply.says(""), Reply.says("That's a great point."))
    debate = new_debate()

    message = _speak(debate, personas[0], kind=Message.Kind.REPLY, turn=2, allow_pass=True)

    assert message is None
    assert not Message.objects.filter(debate=debate).exists()
    view = debate_view(debate_id=debate.id)
    assert not [item for item in view.chat if item.kind == "message"]


@pytest.mark.django_db(transaction=True)
def test_a_turn_shown_while_it_streamed_that_ends_with_nothing_is_withdrawn(fake_anthropic, new_debate, personas):
    # A dead worker's turn is said again into its row; both drafts end up with nothing usable.
    fake_anthropic.script(Reply.says("I understand your perspective."), Reply.says("Topic: Is hard money the future?"))
    debate = new_debate()
    interrupted = message_begin(debate=debate, persona=personas[0], seat=0, kind=Message.Kind.OPENING, turn=1)
    message_text_save(message=interrupted, text="Gold is")

    message = _speak(debate, personas[0], interrupted=interrupted)

    assert message is None
    assert not Message.objects.filter(debate=debate).exists()
    assert Event.objects.filter(debate=debate, kind=EventKind.MESSAGE_WITHDRAWN).count() == 1
    view = debate_view(debate_id=debate.id)
    assert not [item for item in view.chat if item.kind == "message"]
    withdrawn = [html for kind, html in fragments_by_event(debate) if kind == EventKind.MESSAGE_WITHDRAWN]
    assert f'<div id="msg-{interrupted.id}" hx-swap-oob="delete"></div>' in withdrawn[0]
    assert "(no answer)" not in "".join(html for _, html in fragments_by_event(debate))


@pytest.mark.django_db(transaction=True)
def test_a_persona_that_only_echoes_its_prompt_passes_and_never_shows_a_placeholder(scripted_api, new_debate):
    api, script = scripted_api(dispute="none")
    respond = script.respond

    def cleo_echoes(body: dict, call) -> Reply:
        # Keyed on the speaker (the call's persona), as a small model might answer.
        if body.get("stream") and call.persona == "cleo-central":
            return Reply.says("WHERE EVERYONE STANDS\nAda Hardmoney: holds their ground.\nYou've argued: (none)")
        return respond(body, call)

    api.responder = cleo_echoes
    debate = new_debate(max_turns=6)

    debate_run(debate_id=debate.id)

    debate.refresh_from_db()
    assert debate.status == "completed"
    messages = list(Message.objects.filter(debate=debate).select_related("persona"))
    assert messages and all(m.text.strip() and m.text != "(no answer)" for m in messages)
    assert "Cleo Central" not in {m.persona.name for m in messages}
    view = debate_view(debate_id=debate.id)
    shown = [item.message.text for item in view.chat if item.kind == "message"]
    assert "(no answer)" not in shown and len(shown) == len([m for m in messages if m.room_id is None])
    assert any(item.kind == "pass" and item.persona_name == "Cleo Central" for item in view.chat)
