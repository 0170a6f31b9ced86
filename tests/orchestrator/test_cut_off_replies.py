"""A reply the token limit cut off is never stored as finished mid-word: it ends at its last whole
sentence, and the page and the exports say it was cut."""

import json

import pytest

from debates import fragments
from debates.models import Message
from debates.payloads import EventKind
from debates.selectors import debate_events
from debates.state import DebateView, apply
from gateways.llm.fake_messages_api import Reply
from orchestration.speaking import Speaker, speak, write
from orchestration.voice import end_at_whole_sentence

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "cut, ended",
    [
        ("We agree on the mechanism. The disagreement is about the timing a", "We agree on the mechanism."),
        ("Gold held its value! Did bonds? Not after 19", "Gold held its value! Did bonds?"),
        ('She said "rates decide it." Then she paus', 'She said "rates decide it."'),
        ("First line of a list\nSecond line, unfinis", "First line of a list"),
        # no whole sentence: it ends at its last whole word, and says so
        ("We agree on the mechanism a", "We agree on the mechanism…"),
        ("The long run, the short run, and the", "The long run, the short run, and…"),
        ("Inflat", ""),
        # cut exactly where a sentence ends: nothing is lost
        ("Savers lose to inflation.", "Savers lose to inflation."),
        ("Do they? Yes.", "Do they? Yes."),
    ],
)
def test_a_cut_reply_ends_at_its_last_whole_sentence(cut, ended):
    assert end_at_whole_sentence(cut) == ended


def _sent(debate) -> dict[str, str]:
    """kind -> what the live page was sent for the events of that kind."""
    view, sent = DebateView(debate_id=str(debate.id)), {}
    for seq, kind, payload in debate_events(debate_id=debate.id):
        apply(view, seq, kind, payload)
        sent[kind] = sent.get(kind, "") + fragments.for_event(view, kind, payload)
    return sent


def _opening(debate, persona):
    return speak(
        debate=debate,
        speaker=Speaker(persona, seat=0),
        kind=Message.Kind.OPENING,
        turn=1,
        context="Give your opening statement on the topic: 3-5 sentences.",
        phase="opening",
    )


def test_a_reply_cut_at_the_token_limit_is_stored_whole_and_marked_cut(
    fake_anthropic, new_debate, personas, client, user
):
    fake_anthropic.script(
        Reply.truncated("We agree on the mechanism. The disagreement is about the timing a", chunk_size=5)
    )
    debate = new_debate()
    debate.owner = user
    debate.save(update_fields=["owner"])
    client.force_login(user)

    message = _opening(debate, personas[0])

    message.refresh_from_db()
    assert message.text == "We agree on the mechanism."
    assert message.cut_off and message.status == Message.Status.COMPLETE
    completed = _sent(debate)[EventKind.MESSAGE_COMPLETED]
    assert 'class="msg-cut"' in completed and "cut off" in completed
    assert "timing a" not in completed
    page = client.get(f"/debates/{debate.id}/").content.decode()
    assert 'class="msg-cut"' in page
    markdown = client.get(f"/debates/{debate.id}/export.md").content.decode()
    assert "**Ada Hardmoney** · opening · (cut off at the length limit)\n> We agree on the mechanism." in markdown
    document = json.loads(client.get(f"/debates/{debate.id}/export.json").content)
    assert document["summary"]["chat"][0]["message"]["cut_off"] is True


def test_a_reply_that_ends_on_its_own_is_not_marked(fake_anthropic, new_debate, personas):
    fake_anthropic.script(Reply.says("We agree on the mechanism. The timing is the question."))
    debate = new_debate()

    message = _opening(debate, personas[0])

    message.refresh_from_db()
    assert message.text == "We agree on the mechanism. The timing is the question." and not message.cut_off
    assert 'class="msg-cut"' not in _sent(debate)[EventKind.MESSAGE_COMPLETED]


def test_a_long_answer_cut_at_the_token_limit_ends_at_its_last_whole_line(fake_anthropic, new_debate, personas):
    fake_anthropic.script(
        Reply.truncated("## Plan\n\n1. One service, one database.\n2. A queue for the slow wo", chunk_size=7)
    )
    debate = new_debate()

    message, _ = write(
        debate=debate,
        speaker=Speaker(personas[0], seat=0),
        kind=Message.Kind.DRAFT,
        turn=1,
        content="Answer the brief.",
        system_prefix="You are the Architect.",
        role="architect",
        phase="collaborate_draft",
    )

    message.refresh_from_db()
    assert message.text == "## Plan\n\n1. One service, one database." and message.cut_off
