"""Model text is untrusted: wherever it is shown it must stay text. These render every partial
(and page, and export) from a debate whose every model-written field is hostile markup."""

import json

import pytest

from debates import exports, fragments
from debates.exports import md_escape
from debates.selectors import debate_view
from debates.state import EventKind
from tests.debates.log_builder import HOSTILE, DebateLog, sample_results

pytestmark = pytest.mark.django_db

LIVE_MARKUP = ["<script>alert(1)", "<img src=x", '<img src="x"', 'onerror="alert(2)"']


def assert_inert(html: str) -> None:
    for marker in LIVE_MARKUP:
        assert marker not in html, f"live markup {marker!r} in output"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.fixture
def hostile(make_debate, personas):
    debate = make_debate(topic=f"Topic {HOSTILE}")
    log = DebateLog(debate)
    log.start()
    log.aspects(f"Aspect {HOSTILE}")
    log.phase("dialogue", 0)
    log.say(personas[0], f"Opening {HOSTILE}", kind="opening")
    streaming = log.begin(personas[1])
    log.stream(streaming, f"Half {HOSTILE}")
    room = log.open_room(personas[0], personas[2], f"Room {HOSTILE}")
    log.say(personas[0], f"Room talk {HOSTILE}", kind="entry", room=room)
    log.close_room(room)
    log.post_card(
        room,
        question=f"Card {HOSTILE}",
        reasoning=f"Reason {HOSTILE}",
        falsifier=f"Flip {HOSTILE}",
        diagnosis=f"Diagnosis {HOSTILE}",
        resolved=True,
        resolution=f"Resolution {HOSTILE}",
        disagreement_type=HOSTILE,
    )
    log.ledger(personas[0], stance=f"Stance {HOSTILE}")
    log.fail(f"Failure {HOSTILE}")
    log.complete(sample_results(f"Result {HOSTILE}", names=(f"Ada {HOSTILE}", f"Bram {HOSTILE}")))
    return debate


def test_every_partial_keeps_hostile_text_inert(hostile):
    view = debate_view(debate_id=hostile.id)
    room = view.rooms[0]

    rendered = {
        "message": fragments.message(view.chat[0].message),
        "message oob": fragments.message(view.chat[0].message, oob=True),
        "crux card": fragments.crux_card(view.cards[0]),
        "room tab": fragments.room_tab(room),
        "room head": fragments.room_head(room),
        "status line": fragments.status_line(view),
        "banner": fragments.banner(view),
        "snapshot": fragments.snapshot(view),
    }
    for name, html in rendered.items():
        for marker in LIVE_MARKUP:
            assert marker not in html, f"{name}: {marker!r}"
    assert_inert(rendered["snapshot"])
    for text in [
        "Opening",
        "Room talk",
        "Card",
        "Reason",
        "Flip",
        "Diagnosis",
        "Resolution",
        "Result",
        "Room",
        "Stance",
    ]:
        assert f"{text} &lt;script&gt;alert(1)&lt;/script&gt;" in rendered["snapshot"], text


def test_every_event_fragment_keeps_hostile_text_inert(hostile):
    from debates.selectors import debate_events
    from debates.state import DebateView, apply

    view = DebateView(debate_id=str(hostile.id))
    for seq, kind, payload in debate_events(debate_id=hostile.id):
        apply(view, seq, kind, payload)
        html = fragments.for_event(view, kind, payload)
        for marker in LIVE_MARKUP:
            assert marker not in html, f"event {seq} {kind}: {marker!r}"


@pytest.mark.parametrize("path", ["", "replay/", "replay/?step=4", "results/"])
def test_pages_keep_hostile_text_inert(owner_client, hostile, path):
    content = owner_client.get(f"/debates/{hostile.id}/{path}").content.decode()

    assert_inert(content)


def test_the_archive_keeps_a_hostile_topic_inert(owner_client, hostile):
    content = owner_client.get("/debates/").content.decode()

    assert_inert(content)
    assert_inert(owner_client.get("/debates/", {"q": HOSTILE}).content.decode())


def test_the_shared_page_keeps_hostile_text_inert(client, hostile):
    from debates.services.lifecycle import debate_share

    token = debate_share(debate=hostile)

    assert_inert(client.get(f"/shared/{token}/").content.decode())


def test_markdown_export_neutralises_html(owner_client, hostile):
    text = owner_client.get(f"/debates/{hostile.id}/export.md").content.decode()

    for line in text.splitlines():
        body = line[1:] if line.startswith(">") else line  # a blockquote marker is Markdown, not model text
        assert "<" not in body and ">" not in body, line
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "onerror" in text  # still readable as text


def test_markdown_escaping_stops_links_and_raw_html():
    assert md_escape("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert md_escape("[click](javascript:alert(1))") == "\\[click\\](javascript:alert(1))"
    assert md_escape("![img](http://x/y.png)") == "!\\[img\\](http://x/y.png)"
    assert md_escape("\\[sneaky]") == "\\\\\\[sneaky\\]"


def test_json_export_keeps_text_verbatim_but_inert(owner_client, hostile):
    raw = owner_client.get(f"/debates/{hostile.id}/export.json").content.decode()

    assert "<" not in raw and ">" not in raw
    document = json.loads(raw)
    assert document["summary"]["chat"][0]["message"]["text"] == f"Opening {HOSTILE}"


def test_markdown_of_a_folded_view_directly(hostile):
    text = exports.debate_markdown(debate=hostile, view=debate_view(debate_id=hostile.id))

    assert "<script" not in text and "<img" not in text
    assert text.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 10


def test_event_kinds_are_all_covered_by_the_hostile_log(hostile):
    kinds = set(hostile.events.values_list("kind", flat=True))

    assert kinds >= {
        EventKind.MESSAGE_STARTED,
        EventKind.MESSAGE_COMPLETED,
        EventKind.ROOM_OPENED,
        EventKind.ROOM_CLOSED,
        EventKind.CARD_POSTED,
        EventKind.DEBATE_FAILED,
        EventKind.DEBATE_FINISHED,
        EventKind.ASPECTS_SET,
        EventKind.PHASE_CHANGED,
    }
