"""The live page's websocket checks membership: a member watches, a removed member is disconnected
at once, someone never invited is closed on connect."""

import pytest
from asgiref.sync import sync_to_async

from debates import consumers
from debates.services.members import debate_member_add, debate_member_remove
from tests.debates.log_builder import DebateLog
from tests.debates.test_consumer import TIMEOUT, communicator, run
from tests.team.conftest import client_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_member_watches_and_is_disconnected_when_removed(owner_client, debate, personas, bob):
    log = DebateLog(debate).start()
    log.say(personas[0], "Members hear this.")
    debate_member_add(debate=debate, username="bob")
    bob_client = client_of(bob)

    async def scenario():
        member = communicator(debate, client=bob_client)
        owner = communicator(debate, client=owner_client)
        snapshots = []
        for ws in (member, owner):
            assert (await ws.connect(timeout=TIMEOUT))[0]
            snapshots.append(await ws.receive_from(timeout=TIMEOUT))
        await sync_to_async(debate_member_remove)(debate=debate, user_id=bob.id)
        closed = await member.receive_output(timeout=TIMEOUT)
        await sync_to_async(log.say)(personas[1], "Only the owner hears this.")
        owner_hears = [await owner.receive_from(timeout=TIMEOUT) for _ in range(2)]
        await owner.disconnect()
        return snapshots, closed, owner_hears

    snapshots, closed, owner_hears = run(scenario)
    assert "Members hear this." in snapshots[0]
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}
    assert "Only the owner hears this." in owner_hears[1]


def test_someone_never_invited_is_closed(debate, personas, bob, other_user):
    DebateLog(debate).start().say(personas[0], "Private words.")
    debate_member_add(debate=debate, username="bob")
    mallory = client_of(other_user)

    async def scenario():
        ws = communicator(debate, client=mallory)
        await ws.connect(timeout=TIMEOUT)
        return await ws.receive_output(timeout=TIMEOUT)

    assert run(scenario) == {"type": "websocket.close", "code": consumers.CLOSE_FORBIDDEN}
