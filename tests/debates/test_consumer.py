"""The live page's websocket, through the real ASGI stack (origin check, session auth, routing)
and the real Redis channel layer."""

import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator

from debates import broadcast, consumers
from debates.services.lifecycle import debate_share
from faultline.asgi import application
from tests.debates.log_builder import DebateLog

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
    for region in ["status-line", "debate-banner", "chat-log", "crux-cards", "positions", "drawer-tabs", "drawer-panels",
                   "results"]:
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', snapshot), region
    assert "Gold has history." in snapshot
    assert "Liquidity is the half-said" in snapshot  # a reload mid-message shows the text so far
    assert message_ids(snapshot) == [f"msg-{streaming.id - 1}", f"msg-{streaming.id}"]


def test_it_forwards_new_events_and_drops_those_in_the_snapshot(owner_client, debate, personas):
    log = DebateLog(debate).start()
    log.say(personas[0], "Before connecting.")
    snapshot_seq = debate.events.count()

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        send = sync_to_async(broadcast.send)
        await send(debate_id=debate.id, html='<p id="old">already shown</p>', seq=snapshot_seq)
        await send(debate_id=debate.id, html='<p id="progress">streaming</p>', seq=None)
        await sync_to_async(log.say)(personas[1], "After connecting.")
        received = [await ws.receive_from(timeout=TIMEOUT) for _ in range(3)]
        assert await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return received

    progress, started, completed = run(scenario)
    assert "already shown" not in "".join([progress, started, completed])
    assert progress == '<p id="progress">streaming</p>'
    assert 'hx-swap-oob="beforeend:#chat-log"' in started
    assert "After connecting." in completed


def test_an_event_committed_while_the_snapshot_is_read_arrives_exactly_once(owner_client, debate, personas,
                                                                            monkeypatch):
    """The consumer joins the group before reading the snapshot: an event committed in between is
    in the snapshot and its broadcast is dropped; one committed just after is forwarded once."""
    log = DebateLog(debate).start()
    real_live_view = consumers.debate_live_view
    said = {}

    def racing_live_view(*, debate_id):
        said["inside"] = log.say(personas[0], "Committed before the snapshot read.")
        view = real_live_view(debate_id=debate_id)
        said["after"] = log.say(personas[1], "Committed after the snapshot read.")
        return view

    monkeypatch.setattr(consumers, "debate_live_view", racing_live_view)

    async def scenario():
        ws = communicator(debate, client=owner_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        received = [await ws.receive_from(timeout=TIMEOUT) for _ in range(3)]  # snapshot, started, completed
        assert await ws.receive_nothing(timeout=1)
        await ws.disconnect()
        return received

    snapshot, started, completed = run(scenario)
    page = "".join([snapshot, started, completed])
    assert page.count("Committed before the snapshot read.") == 1
    assert page.count("Committed after the snapshot read.") == 1
    assert "Committed before the snapshot read." in snapshot
    assert message_ids(snapshot) == [f"msg-{said['inside'].id}"]
    assert message_ids(started) == [f"msg-{said['after'].id}"]


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
        ws = WebsocketCommunicator(application, f"/ws/debates/{debate.id}/", headers=[
            (b"origin", b"http://evil.example"),
            (b"cookie", f"sessionid={owner_client.cookies['sessionid'].value}".encode()),
        ])
        connected, _ = await ws.connect(timeout=TIMEOUT)
        return connected

    assert run(scenario) is False
