"""What a debate spent (tokens, cost) is its owner's alone: a member never sees it, on the pages,
over the websocket (the snapshot and every event after it) or in the exports; the owner still does."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from debates.services.lifecycle import debate_share
from debates.services.members import debate_member_add
from tests.debates.log_builder import DebateLog
from tests.debates.test_consumer import TIMEOUT, communicator, run
from tests.team.conftest import client_of

SPEND = ['class="status-cost"', 'class="status-tokens"']


@pytest.mark.django_db
def test_a_members_pages_and_exports_do_not_show_the_spend(owner_client, debate, cards, bob):
    debate_member_add(debate=debate, username="bob")
    bob_client = client_of(bob)
    for name in ["debate_live", "debate_results", "debate_replay"]:
        url = reverse(name, args=[debate.id])
        assert all(mark in owner_client.get(url).content.decode() for mark in SPEND), name
        assert not any(mark in bob_client.get(url).content.decode() for mark in SPEND), name
    shared = client_of(bob).get(reverse("debate_shared", args=[debate_share(debate=debate)])).content.decode()
    assert not any(mark in shared for mark in SPEND)
    markdown = reverse("debate_export_markdown", args=[debate.id])
    assert "Cost: $" in owner_client.get(markdown).content.decode()
    assert "Cost: $" not in bob_client.get(markdown).content.decode()
    document = json.loads(bob_client.get(reverse("debate_export_json", args=[debate.id])).content)
    assert document["summary"]["totals"] is None
    assert not any("totals" in event["payload"] for event in document["events"])
    owners = json.loads(owner_client.get(reverse("debate_export_json", args=[debate.id])).content)
    assert float(owners["summary"]["totals"]["cost"]) > 0


@pytest.mark.django_db(transaction=True)
def test_a_members_socket_never_carries_the_spend(owner_client, debate, personas, bob):
    log = DebateLog(debate).start()
    debate_member_add(debate=debate, username="bob")
    bob_client = client_of(bob)

    async def scenario():
        owner, member = communicator(debate, client=owner_client), communicator(debate, client=bob_client)
        snapshots = []
        for ws in (owner, member):
            assert (await ws.connect(timeout=TIMEOUT))[0]
            snapshots.append(await ws.receive_from(timeout=TIMEOUT))
        await sync_to_async(log.phase)("dialogue")
        events = [await ws.receive_from(timeout=TIMEOUT) for ws in (owner, member)]
        for ws in (owner, member):
            await ws.disconnect()
        return snapshots, events

    (owner_snapshot, member_snapshot), (owner_event, member_event) = run(scenario)
    assert all(mark in owner_snapshot and mark in owner_event for mark in SPEND)
    assert not any(mark in member_snapshot or mark in member_event for mark in SPEND)
    assert 'id="status-line"' in member_event  # the status line itself still goes out
