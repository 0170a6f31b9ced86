"""The htmx out-of-band contract: which region each event redraws, and how."""

import pytest

from debates import fragments
from debates.selectors import debate_events, debate_view
from debates.state import DebateView, EventKind, apply
from tests.debates.log_builder import DebateLog, sample_results

pytestmark = pytest.mark.django_db


def fragments_by_event(debate) -> list[tuple[str, str]]:
    view = DebateView(debate_id=str(debate.id))
    out = []
    for seq, kind, payload in debate_events(debate_id=debate.id):
        apply(view, seq, kind, payload)
        out.append((kind, fragments.for_event(view, kind, payload)))
    return out


def test_each_event_redraws_its_regions(debate, personas):
    log = DebateLog(debate).start()
    main = log.say(personas[0], "Main words.")
    log.pass_turn(personas[2])
    room = log.open_room(personas[0], personas[1], "Is gold a hedge?")
    in_room = log.say(personas[1], "Room words.", kind="entry", room=room)
    log.close_room(room)
    card = log.post_card(room)
    log.complete(sample_results())

    events = fragments_by_event(debate)
    html = dict.fromkeys([kind for kind, _ in events])
    for kind, fragment in events:
        html[kind] = (html[kind] or "") + fragment
        assert 'id="status-line" class="status-line" hx-swap-oob="true"' in fragment
        assert 'id="debate-banner"' in fragment

    started = [f for kind, f in events if kind == EventKind.MESSAGE_STARTED]
    assert started[0].startswith(f'<div hx-swap-oob="beforeend:#chat-log"><article id="msg-{main.id}"')
    assert started[1].startswith(f'<div hx-swap-oob="beforeend:#room-log-{room.id}"><article id="msg-{in_room.id}"')
    completed = [f for kind, f in events if kind == EventKind.MESSAGE_COMPLETED]
    assert completed[0].startswith(f'<article id="msg-{main.id}"')
    assert 'hx-swap-oob="true"' in completed[0].split(">")[0]
    assert 'hx-swap-oob="beforeend:#chat-log"><p class="chat-pass"' in html[EventKind.TURN_PASSED]
    opened = html[EventKind.ROOM_OPENED]
    assert f'hx-swap-oob="beforeend:#drawer-tabs"><button type="button" id="room-tab-{room.id}"' in opened
    assert f'hx-swap-oob="beforeend:#drawer-panels"><section id="room-panel-{room.id}"' in opened
    assert 'class="pulse"' in opened
    closed = html[EventKind.ROOM_CLOSED]
    assert f'id="room-tab-{room.id}" class="room-tab is-done"' in closed and "tab-suit" in closed
    assert f'<header id="room-head-{room.id}" class="room-head" hx-swap-oob="true"' in closed
    posted = html[EventKind.CARD_POSTED]
    assert f'hx-swap-oob="beforeend:#crux-cards"><article id="card-{card.id}"' in posted
    assert f'href="#card-{card.id}"' in posted
    finished = html[EventKind.DEBATE_FINISHED]
    assert '<section id="results" class="results" aria-label="Results" hx-swap-oob="true"' in finished
    assert '<div id="interjection-slot" hx-swap-oob="true"></div>' in finished  # the form goes
    assert 'id="interjection-slot"' not in html[EventKind.CARD_POSTED]


def test_a_ledger_update_redraws_where_they_stand(debate, personas):
    log = DebateLog(debate).start()
    log.ledger(
        personas[1],
        stance="Liquidity decides.",
        concessions=["history matters a little"],
        shifts=["from 'never' to 'rarely'"],
        unanswered=["why?"],
        disagrees=[(personas[0], "whether <b>history</b> decides")],
    )
    log.ledger(personas[2], stance="Both clocks.", agrees=[(personas[1], "liquidity")])

    kind, html = fragments_by_event(debate)[-1]

    assert kind == EventKind.LEDGER_UPDATED
    assert html.startswith(
        '<section id="positions" class="positions" aria-labelledby="positions-heading" hx-swap-oob="true">'
    )
    assert "Liquidity decides." in html and "1 concession · 1 shift · 1 unanswered challenge" in html
    assert (
        "<li>history matters a little</li>" in html and "<li>from &#x27;never&#x27; to &#x27;rarely&#x27;</li>" in html
    )
    # the position map: one edge per relation, drawn between the right pair, its point escaped
    assert 'id="position-map"' in html
    assert html.count('class="map-edge map-disagree is-strong"') == 1 and html.count('class="map-edge map-agree"') == 1
    assert f'data-pair="{personas[0].id}-{personas[1].id}"' in html
    assert f'data-pair="{personas[1].id}-{personas[2].id}"' in html
    assert "whether &lt;b&gt;history&lt;/b&gt; decides" in html and "<b>history</b>" not in html


def test_a_streaming_refresh_replaces_the_message_in_place(debate, personas):
    log = DebateLog(debate).start()
    message = log.begin(personas[0])
    view = debate_view(debate_id=debate.id)
    streaming = view.message(message.id)
    streaming.text = "Half a thou"

    html = fragments.message(streaming, oob=True)

    assert html.startswith(f'<article id="msg-{message.id}" class="msg seat-0 is-streaming"')
    assert 'hx-swap-oob="true"' in html and "Half a thou" in html and 'class="typing"' in html

    text = fragments.message_text(streaming)

    assert text == f'<div id="msg-text-{message.id}" class="msg-text" hx-swap-oob="true">Half a thou</div>'
    assert f'<div id="msg-text-{message.id}" class="msg-text">Half a thou</div>' in html


def test_an_event_can_leave_the_banner_out_but_never_the_status_line(debate, personas):
    DebateLog(debate).start().say(personas[0], "Hello.")
    view = debate_view(debate_id=debate.id)
    seq, kind, payload = debate_events(debate_id=debate.id)[-1]

    html = fragments.for_event(view, kind, payload, with_banner=False)

    assert 'id="debate-banner"' not in html
    assert f'id="status-line" class="status-line" hx-swap-oob="true" data-seq="{seq}"' in html


def test_the_snapshot_replaces_every_region_but_the_drawer_itself(debate, personas):
    DebateLog(debate).start().say(personas[0], "Hello.")
    view = debate_view(debate_id=debate.id)

    html = fragments.snapshot(view)

    regions = [
        "status-line",
        "debate-banner",
        "decided-on",
        "chat-log",
        "crux-cards",
        "positions",
        "debate-memory",
        "where-we-are",
        "drawer-tabs",
        "drawer-panels",
        "results",
    ]
    for region in regions:
        assert f'id="{region}"' in html
    assert 'id="drawer"' not in html  # it keeps which room the reader opened
    assert html.count('hx-swap-oob="true"') == len(regions)  # nested items carry no OOB attribute of their own


def test_the_question_decided_on_is_drawn_when_planning_sets_it(debate, personas):
    from debates import payloads as p
    from debates.services.events import event_append

    DebateLog(debate).start()
    question = "Should the city charge drivers at peak hours?"
    event = event_append(debate_id=debate.id, payload=p.QuestionDecided(question=question))
    view = debate_view(debate_id=debate.id)

    html = fragments.for_event(view, event.kind, event.payload)

    assert 'id="decided-on"' in html and "Decided on:" in html and question in html


def test_a_finished_debate_s_panels_give_no_interim_reading(debate, owner_client):
    """Once the debate has ended, the side panels say what came of it, not what may still come:
    no "yet" beside the one verdict sentence."""
    from debates import payloads as p
    from debates.services.events import event_append

    log = DebateLog(debate).start()
    summary = {"from_turn": 1, "to_turn": 12, "text": "They weighed gold against bonds."}
    event_append(debate_id=debate.id, payload=p.ConversationNoted(summaries=[summary]))
    live = debate_view(debate_id=debate.id)
    assert "No decision reached yet." in fragments.snapshot(live)

    log.complete(sample_results())
    finished = debate_view(debate_id=debate.id)
    panels = fragments.snapshot(finished)
    assert "No decision everyone accepted." in panels and "reached yet" not in panels
    page = owner_client.get(f"/debates/{debate.id}/").content.decode()
    assert "none: no disagreement kept coming back" in page and "none yet" not in page
