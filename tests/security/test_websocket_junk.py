"""The live page's websocket answers junk (a number past a float, JSON nested 200,000 deep) by
closing the socket as unsupported data (1003, not 1011, the server error), with one log line and
no traceback; the other sockets on the debate go on."""

import logging

import pytest
from asgiref.sync import async_to_sync

from debates.services.lifecycle import debate_create
from tests.debates.log_builder import DebateLog
from tests.debates.test_consumer import TIMEOUT, communicator
from tests.factories import PersonaFactory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def owner_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def debate(user):
    hand = [PersonaFactory(persona_id=f"junk-{n}", name=f"Junk {n}") for n in range(2)]
    return debate_create(owner=user, topic="Is junk a report?", personas=hand)


@pytest.mark.parametrize("junk", ['{"seq": 1e999}', "[" * 200_000, '{"seq": ' + "9" * 5000 + "}", '"\\u0000"'])
def test_junk_on_the_websocket_closes_it_as_unsupported_data_with_one_log_line(owner_client, debate, junk, caplog):
    DebateLog(debate).start()

    async def scenario():
        bystander, ws = communicator(debate, client=owner_client), communicator(debate, client=owner_client)
        for socket in (bystander, ws):
            assert (await socket.connect(timeout=TIMEOUT))[0]
            await socket.receive_from(timeout=TIMEOUT)
        await ws.send_to(text_data=junk)
        closed = await ws.receive_output(timeout=TIMEOUT)
        await ws.wait()
        await bystander.send_json_to({"seq": 1})
        still_open = await bystander.receive_nothing(timeout=0.5)
        await bystander.disconnect()
        return closed, still_open

    with caplog.at_level(logging.INFO):
        closed, still_open = async_to_sync(scenario)()

    assert closed == {"type": "websocket.close", "code": 1003}
    assert still_open
    said = [record for record in caplog.records if record.name == "debates.consumers"]
    assert len(said) == 1 and "not a report" in said[0].getMessage()
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR or record.exc_info]
