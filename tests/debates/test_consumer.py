"""The live page's websocket, through the real ASGI stack (origin check, session auth, routing),
the real PostgreSQL announcements (LISTEN/NOTIFY) and the real Redis channel layer."""

import asyncio
import re
from types import SimpleNamespace

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test import Client
from django.urls import reverse

from debates import broadcast, consumers, event_feed
from debates.models import Debate
from debates.services.lifecycle import debate_share, debate_unshare
from debates.services.messages import message_text_save
from faultline.asgi import application
from tests.debates.log_builder import DebateLog, sample_results
from tests.support.live_text import message_progress

pytestmark = pytest.mark.django_db(transaction=True)
TIMEOUT = 10


def communicator(debate, *, client=None, query: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    path = f"/ws/debates/{debate.id}/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)


def run(scenario):
    return async_to_sync(scenario)()


def message_ids(html: str) -> list[str]:
    return re.findall(r'<article id="(msg-\d+)"', html)


def test_it_sends_a_snapshot_on_connect(owner_client, debate, personas):
    log = DebateLog(debate).start()
    log.say(personas[0], "Gold has history.", kind="opening")
    streaming = log.begin(personas[1], kind="opening")
    log.stream(streaming, "Liquidity is the half-said")

    async def scenario():
        ws = communicator(debate, client=owner_client)
        connected, _ = await ws.connect(timeout=TIMEOUT)
        assert connected
        snapshot = await ws.receive_from(timeout=TIMEOUT)
        await ws.disconnect()
        return snapshot

    snapshot = run(scenario)
    for region in [
        "status-line",
        "debate-banner",
        "chat-log",
        "crux-cards",
        "positions",
        "drawer-tabs",
        "drawer-panels",
        "results",
    ]:
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', snapshot), region
    assert "Gold has history." in snapshot
    assert "Liquidity is the half-said" in snapshot  # a reload mid-message shows the text so far
    assert message_ids(snapshot) == [f"msg-{streaming.id - 1}", f"msg-{streaming.id}"]


def announce(debate, *, seq: int, kind: str, payload: dict) -> None:
    """Straight to the web processes, as an event's writer does (committed at once)."""
    notice = broadcast.event_notice(SimpleNamespace(debate_id=debate.id, seq=seq, kind=kind, payload=payload))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", [broadcast.EVENTS_CHANNEL, notice])


def test_it_forwards_new_events_and_drops_those_in_the_snapshot(owner_client, debate, personas):
    log = DebateLog(debate).start()
    log.say(personas[0], "Before connecting.")
    streaming = log.begin(personas[1])
    snapshot_seq = debate.events.count()

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(announce)(
            debate, seq=snapshot_seq, kind="turn_passed", payload={"persona_name": "already shown"}
        )
        await sync_to_async(message_progress)(debate_id=debate.id, message_id=streaming.id, text="Streaming so far")
        await sync_to_async(log.say)(personas[2], "After connecting.")
        await sync_to_async(log.ledger)(personas[2], stance="Holds firm.")
        received = [await ws.receive_from(timeout=TIMEOUT) for _ in range(4)]
        assert await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return received

    progress, started, completed, ledgered = run(scenario)
    assert "already shown" not in "".join([progress, started, completed])
    # only the text is redrawn: the header and its typing dots stay (their animation runs on)
    assert progress == f'<div id="msg-text-{streaming.id}" class="msg-text" hx-swap-oob="true">Streaming so far</div>'
    assert 'hx-swap-oob="beforeend:#chat-log"' in started
    assert "After connecting." in completed
    # the banner says who is speaking now: sent when that changed, and only then
    assert 'id="debate-banner"' in started and "Cleo Central is speaking" in started
    assert 'id="debate-banner"' in completed and "Bram Macro is speaking" in completed
    assert 'id="debate-banner"' not in ledgered and 'id="positions"' in ledgered
    assert all('id="status-line"' in html for html in (started, completed, ledgered))


def test_the_banner_is_sent_again_when_an_event_changes_it(owner_client, debate, personas):
    log = DebateLog(debate)  # pending: "Waiting for a worker"

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        snapshot = await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(log.start)()
        started = await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(log.say)(personas[0], "Words.")
        said = [await ws.receive_from(timeout=TIMEOUT) for _ in range(2)]
        await sync_to_async(log.complete)(sample_results())
        finished = await ws.receive_from(timeout=TIMEOUT)
        await ws.disconnect()
        return snapshot, started, said, finished

    snapshot, started, said, finished = run(scenario)
    assert "Waiting for a worker" in snapshot
    assert 'id="debate-banner" class="banner banner-running"' in started
    # The banner says who speaks once the first words arrive: never "talking" before then.
    assert "Waiting for a worker" in snapshot and "speaking" not in snapshot + started
    assert 'id="debate-banner"' in said[0] and "Ada Hardmoney is speaking" in said[0]
    assert 'id="debate-banner" class="banner banner-completed"' in finished


def test_text_too_long_to_announce_is_read_from_the_database(owner_client, debate, personas):
    log = DebateLog(debate).start()
    message = log.begin(personas[0])
    long_text = "Gold " * (broadcast.MAX_NOTIFY_BYTES // 5 + 10)  # past what a notification may carry

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(message_text_save)(message=message, text=long_text)
        progress = await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(log.finish)(message, long_text + "and the end.")
        completed = await ws.receive_from(timeout=TIMEOUT)
        await ws.disconnect()
        return progress, completed

    progress, completed = run(scenario)
    assert long_text.strip() in progress and "and the end." not in progress
    assert long_text + "and the end." in completed


def drop_pushes(monkeypatch, seqs: set[int]) -> None:
    """Lose the pushes of these events on the way (they are committed all the same)."""
    real = broadcast.event_notice
    monkeypatch.setattr(broadcast, "event_notice", lambda event: None if event.seq in seqs else real(event))


def test_a_lost_event_is_read_from_the_log_when_the_next_one_shows_the_gap(owner_client, debate, personas, monkeypatch):
    log = DebateLog(debate).start()
    lost = debate.events.count() + 2  # the completion of the next message

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        drop_pushes(monkeypatch, {lost})
        await sync_to_async(log.say)(personas[0], "Lost on the way.")
        started = await ws.receive_from(timeout=TIMEOUT)
        following = await sync_to_async(log.begin)(personas[1])
        repaired, following_started = [await ws.receive_from(timeout=TIMEOUT) for _ in range(2)]
        await sync_to_async(log.finish)(following, "Said after the loss.")
        after = await ws.receive_from(timeout=TIMEOUT)  # and on as usual
        assert await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return started, repaired, following_started, after, following

    started, repaired, following_started, after, following = run(scenario)
    assert "Lost on the way." not in started
    assert "Lost on the way." in repaired and f'data-seq="{lost}"' in repaired  # in order, from the log
    assert f"msg-{following.id}" in following_started and f'data-seq="{lost + 1}"' in following_started
    assert "Said after the loss." in after


def test_a_socket_that_skips_a_number_is_resynced_with_a_fresh_snapshot(owner_client, debate, personas):
    log = DebateLog(debate).start()
    log.say(personas[0], "Shown before.")

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        snapshot = await ws.receive_from(timeout=TIMEOUT)
        hub = event_feed.feed().hubs[str(debate.id)]
        (socket,) = hub.sockets
        await socket.deliver_event(socket.last_seq + 2, "<p>two ahead</p>")  # as if one was never handed out
        resync = await ws.receive_from(timeout=TIMEOUT)
        await ws.disconnect()
        return snapshot, resync

    snapshot, resync = run(scenario)
    assert "two ahead" not in resync
    assert 'id="chat-log"' in resync and "Shown before." in resync


def test_a_lost_last_event_is_resent_once_the_page_reports_it_is_behind(owner_client, debate, personas, monkeypatch):
    log = DebateLog(debate).start()
    message = log.begin(personas[0])
    last = debate.events.count() + 1

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        drop_pushes(monkeypatch, {last})
        await sync_to_async(log.finish)(message, "The last word, lost on the way.")
        await ws.send_json_to({"seq": last - 1})
        in_flight = await ws.receive_nothing(timeout=0.5)  # just committed: it may still be on its way
        await asyncio.sleep(consumers.LOST_AFTER.total_seconds())
        await ws.send_json_to({"seq": last - 1})
        repaired = await ws.receive_from(timeout=TIMEOUT)
        await asyncio.sleep(consumers.MIN_CHECK_INTERVAL)
        await ws.send_json_to({"seq": last})
        up_to_date = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return in_flight, repaired, up_to_date

    in_flight, repaired, up_to_date = run(scenario)
    assert in_flight
    assert "The last word, lost on the way." in repaired and f'data-seq="{last}"' in repaired
    assert up_to_date


def test_it_closes_a_socket_that_sends_what_is_not_a_report(owner_client, debate):
    """The page sends only {"seq": n}; anything else closes the socket as unsupported data (1003)."""
    DebateLog(debate).start()

    async def closed_by(junk: str):
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        await ws.send_to(text_data=junk)
        closed = await ws.receive_output(timeout=TIMEOUT)
        await ws.wait()
        return closed

    for junk in [" ", "seq", "[1]", '{"seq": "many"}', '{"seq": null}', '{"other": 1}', '{"seq": true}']:
        assert async_to_sync(closed_by)(junk) == {"type": "websocket.close", "code": 1003}, junk


def test_a_late_streaming_update_never_overwrites_a_finished_message(owner_client, debate, personas):
    log = DebateLog(debate).start()
    message = log.begin(personas[0])

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(log.finish)(message, "The finished text.")
        completed = await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(message_progress)(debate_id=debate.id, message_id=message.id, text="The fini")
        late = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return completed, late

    completed, late = run(scenario)
    assert "The finished text." in completed
    assert late, "the stale text was forwarded"


def test_an_event_committed_while_the_snapshot_is_read_arrives_exactly_once(
    owner_client, debate, personas, monkeypatch
):
    """The debate's hub listens before reading its view: an event committed before the read is in
    the snapshot and its announcement is dropped; one committed just after is forwarded once."""
    log = DebateLog(debate).start()
    real_live_view = event_feed.debate_live_view
    said = {}

    def racing_live_view(*, debate_id):
        said["inside"] = log.say(personas[0], "Committed before the snapshot read.")
        view = real_live_view(debate_id=debate_id)
        said["after"] = log.say(personas[1], "Committed after the snapshot read.")
        return view

    monkeypatch.setattr(event_feed, "debate_live_view", racing_live_view)

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        received = [await ws.receive_from(timeout=TIMEOUT)]
        while not await ws.receive_nothing(timeout=1):
            received.append(await ws.receive_from(timeout=TIMEOUT))
        await ws.disconnect()
        return received

    snapshot, *updates = run(scenario)
    page = "".join([snapshot, *updates])
    assert page.count("Committed before the snapshot read.") == 1
    assert page.count("Committed after the snapshot read.") == 1
    assert "Committed before the snapshot read." in snapshot
    # The second message is in the snapshot or follows it (started, completed), never both.
    assert list(dict.fromkeys(message_ids(page))) == [f"msg-{said['inside'].id}", f"msg-{said['after'].id}"]
    last_seq = debate.events.count()
    assert f'data-seq="{last_seq}"' in (updates or [snapshot])[-1]


def test_what_is_committed_while_the_feed_reconnects_to_the_database_still_arrives(owner_client, debate, personas):
    log = DebateLog(debate).start()

    def cut_the_listening_connection() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                # This database's listener only: another xdist worker's share the server.
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE %s AND pid <> pg_backend_pid() AND datname = current_database()",
                [f"LISTEN {broadcast.PROGRESS_CHANNEL}"],
            )
            return [row[0] for row in cursor.fetchall()] == [True]

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        assert await sync_to_async(cut_the_listening_connection)()
        said = await sync_to_async(log.say)(personas[0], "Said while nobody listened.")
        received = [await ws.receive_from(timeout=TIMEOUT) for _ in range(2)]  # started, completed
        await ws.disconnect()
        return said, received

    said, (started, completed) = run(scenario)
    assert message_ids(started) == [f"msg-{said.id}"]
    assert "Said while nobody listened." in completed


def test_each_reconnect_gets_a_fresh_snapshot(owner_client, debate, personas):
    log = DebateLog(debate).start()
    log.say(personas[0], "One.")

    async def scenario():
        first = communicator(debate, client=owner_client)
        assert (await first.connect(timeout=TIMEOUT))[0]
        one = await first.receive_from(timeout=TIMEOUT)
        await first.disconnect()
        await sync_to_async(log.say)(personas[1], "Two.")
        second = communicator(debate, client=owner_client)
        assert (await second.connect(timeout=TIMEOUT))[0]
        two = await second.receive_from(timeout=TIMEOUT)
        await second.disconnect()
        return one, two

    one, two = run(scenario)
    assert "Two." not in one
    assert "One." in two and "Two." in two
    assert len(message_ids(two)) == 2


def closed_without_data(debate, *, client=None, query: str = ""):
    async def scenario():
        ws = communicator(debate, client=client, query=query)
        connected, _ = await ws.connect(timeout=TIMEOUT)
        output = await ws.receive_output(timeout=TIMEOUT)
        await ws.wait()
        return connected, output

    return run(scenario)


def test_another_user_is_closed(client, other_user, debate):
    client.force_login(other_user)

    connected, output = closed_without_data(debate, client=client)

    assert output == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}


def test_an_anonymous_visitor_is_closed(debate):
    DebateLog(debate).start()

    _, output = closed_without_data(debate)

    assert output["type"] == "websocket.close"


def test_a_wrong_share_token_is_closed(debate):
    debate_share(debate=debate)

    _, output = closed_without_data(debate, query="share=guess")

    assert output["type"] == "websocket.close"


def test_a_share_token_lets_anyone_watch(debate, personas):
    DebateLog(debate).start().say(personas[0], "Public words.")
    token = debate_share(debate=debate)

    async def scenario():
        ws = communicator(debate, query=f"share={token}")
        assert (await ws.connect(timeout=TIMEOUT))[0]
        snapshot = await ws.receive_from(timeout=TIMEOUT)
        await ws.disconnect()
        return snapshot

    assert "Public words." in run(scenario)


def test_a_foreign_origin_is_refused(owner_client, debate):
    async def scenario():
        ws = WebsocketCommunicator(
            application,
            f"/ws/debates/{debate.id}/",
            headers=[
                (b"origin", b"http://evil.example"),
                (b"cookie", f"sessionid={owner_client.cookies['sessionid'].value}".encode()),
            ],
        )
        connected, _ = await ws.connect(timeout=TIMEOUT)
        return connected

    assert run(scenario) is False


def test_a_viewer_watching_by_link_is_disconnected_when_the_owner_stops_sharing(owner_client, debate, personas):
    log = DebateLog(debate).start()
    token = debate_share(debate=debate)

    async def scenario():
        viewer = communicator(debate, query=f"share={token}")
        owner = communicator(debate, client=owner_client)
        for ws in (viewer, owner):
            assert (await ws.connect(timeout=TIMEOUT))[0]
            await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(debate_unshare)(debate=debate)
        closed = await viewer.receive_output(timeout=TIMEOUT)
        await sync_to_async(log.say)(personas[0], "Only the owner hears this.")
        owner_hears = [await owner.receive_from(timeout=TIMEOUT) for _ in range(2)]
        await owner.disconnect()
        return closed, owner_hears

    closed, owner_hears = run(scenario)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}
    assert "Only the owner hears this." in owner_hears[1]


def test_a_socket_that_lost_access_without_notice_is_closed_at_the_pages_next_report(debate):
    DebateLog(debate).start()
    token = debate_share(debate=debate)

    async def scenario():
        viewer = communicator(debate, query=f"share={token}")
        assert (await viewer.connect(timeout=TIMEOUT))[0]
        await viewer.receive_from(timeout=TIMEOUT)
        # the link is revoked by a write that tells no socket (another process, a script, the admin)
        await sync_to_async(Debate.objects.filter(pk=debate.pk).update)(share_token=None)
        await viewer.send_json_to({"seq": 1})
        return await viewer.receive_output(timeout=TIMEOUT)

    assert run(scenario) == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}


def test_logging_out_closes_the_sockets_of_that_session_only(owner_client, user, debate):
    DebateLog(debate).start()
    elsewhere = Client()
    elsewhere.force_login(user)

    async def scenario():
        here = communicator(debate, client=owner_client)
        other_session = communicator(debate, client=elsewhere)
        for ws in (here, other_session):
            assert (await ws.connect(timeout=TIMEOUT))[0]
            await ws.receive_from(timeout=TIMEOUT)
        response = await sync_to_async(owner_client.post)(reverse("logout"))
        closed = await here.receive_output(timeout=TIMEOUT)
        still_open = await other_session.receive_nothing(timeout=0.5)
        await other_session.disconnect()
        return response, closed, still_open

    response, closed, still_open = run(scenario)
    assert response.status_code == 302
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}
    assert still_open
