"""The faultline map's websocket: a side taken reaches every open map once it is committed, each
rendered for its own viewer (names for the owner and members, counts for a share link); someone
never invited, or removed, is closed."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from debates import consumers
from debates.services.lifecycle import debate_share
from debates.services.members import debate_member_add, debate_member_remove
from debates.services.sides import side_take
from faultline.asgi import application
from tests.debates.log_builder import DebateLog
from tests.debates.test_consumer import TIMEOUT, run
from tests.team.conftest import client_of

pytestmark = pytest.mark.django_db(transaction=True)


def sides_socket(debate, *, client=None, query: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    path = f"/ws/debates/{debate.id}/sides/" + (f"?{query}" if query else "")
    return WebsocketCommunicator(application, path, headers=headers)


def test_a_side_taken_reaches_each_open_map_as_its_viewer_may_see_it(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    token = debate_share(debate=debate)

    async def scenario():
        owner, viewer = sides_socket(debate, client=owner_client), sides_socket(debate, query=f"share={token}")
        first = []
        for ws in (owner, viewer):
            assert (await ws.connect(timeout=TIMEOUT))[0]
            first.append(await ws.receive_from(timeout=TIMEOUT))
        await sync_to_async(side_take)(debate=debate, user=bob, crux=1, side="no", because="Bob would move on data.")
        pushed = [await ws.receive_from(timeout=TIMEOUT) for ws in (owner, viewer)]
        for ws in (owner, viewer):
            await ws.disconnect()
        return first, pushed

    first, (to_owner, to_viewer) = run(scenario)
    assert all("Nobody has taken a side yet." in html for html in first)
    assert f'id="people-card-{cards[0].id}" class="faultline-people" hx-swap-oob="true"' in to_owner
    assert 'data-person="bob" data-side="NO"' in to_owner and "Bob would move on data." in to_owner
    assert "1 no" in to_viewer
    assert "bob" not in to_viewer and "Bob would move" not in to_viewer


def test_someone_never_invited_is_closed(debate, cards, other_user):
    mallory = client_of(other_user)

    async def scenario():
        ws = sides_socket(debate, client=mallory)
        await ws.connect(timeout=TIMEOUT)
        return await ws.receive_output(timeout=TIMEOUT)

    assert run(scenario) == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}


def test_a_removed_member_is_disconnected(debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    bob_client = client_of(bob)

    async def scenario():
        ws = sides_socket(debate, client=bob_client)
        assert (await ws.connect(timeout=TIMEOUT))[0]
        await ws.receive_from(timeout=TIMEOUT)
        await sync_to_async(debate_member_remove)(debate=debate, user_id=bob.id)
        return await ws.receive_output(timeout=TIMEOUT)

    assert run(scenario) == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}


def test_a_crux_card_posted_while_the_map_is_open_adds_its_row_with_the_viewers_form(owner_client, debate, personas):
    log = DebateLog(debate).start()

    async def scenario():
        owner = sides_socket(debate, client=owner_client)
        assert (await owner.connect(timeout=TIMEOUT))[0]
        first = await owner.receive_from(timeout=TIMEOUT)
        room = await sync_to_async(log.open_room)(personas[0], personas[1], "Will gold outlast the dollar?")
        card = await sync_to_async(log.post_card)(room)
        added = await owner.receive_from(timeout=TIMEOUT)
        await owner.disconnect()
        return first, card, added

    first, card, added = run(scenario)
    assert 'data-crux="1"' not in first and 'id="side-form-0"' in first
    assert f'id="faultline-row-card-{card.id}" data-crux="1"' in added and 'id="side-form-1"' in added
    assert 'id="faultline-rows" class="faultline-rows" hx-swap-oob="true"' in added
