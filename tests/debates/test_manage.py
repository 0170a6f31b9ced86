"""Renaming and deleting a debate: its owner only; a running debate is not deleted."""

from decimal import Decimal

import pytest

from debates.models import Debate, Event, Message
from gateways.llm.models import ModelCall

pytestmark = pytest.mark.django_db


def test_the_owner_renames_a_debate(owner_client, debate):
    response = owner_client.post(f"/debates/{debate.id}/rename/", {"topic": "  Is gold still a hedge?  "})

    assert response.status_code == 302 and response["Location"] == f"/debates/{debate.id}/"
    debate.refresh_from_db()
    assert debate.topic == "Is gold still a hedge?"


def test_a_rename_to_nothing_is_refused_and_changes_nothing(owner_client, debate):
    response = owner_client.post(f"/debates/{debate.id}/rename/", {"topic": "   "})

    assert response.status_code == 200
    assert "Type a topic for the debate." in response.content.decode()
    debate.refresh_from_db()
    assert debate.topic == "Is hard money the future?"


def test_the_owner_deletes_a_finished_debate_after_confirming(owner_client, debate, log, personas):
    log.start()
    log.say(personas[0], "Soon gone.")
    log.complete()
    ModelCall.objects.create(
        debate=debate, role="persona", provider="anthropic", model="claude-sonnet-5-5", cost_usd=Decimal("0.5")
    )

    confirm = owner_client.get(f"/debates/{debate.id}/delete/")
    assert confirm.status_code == 200 and "Delete this debate?" in confirm.content.decode()
    assert Debate.objects.filter(pk=debate.pk).exists(), "asking is not deleting"

    response = owner_client.post(f"/debates/{debate.id}/delete/", follow=True)

    assert response.redirect_chain[-1][0] == "/debates/"
    assert "Deleted “Is hard money the future?”." in response.content.decode()
    assert not Debate.objects.filter(pk=debate.pk).exists()
    assert not Event.objects.filter(debate_id=debate.pk).exists() and not Message.objects.exists()
    assert ModelCall.objects.get().debate is None, "the ledger keeps the call, for the spend caps"


def test_a_debate_waiting_for_its_worker_is_not_deleted(owner_client, debate):
    assert debate.status == Debate.Status.PENDING  # just queued: a worker is about to run it

    response = owner_client.post(f"/debates/{debate.id}/delete/")

    assert response.status_code == 409
    assert "This debate is still running: stop it" in response.content.decode()
    assert Debate.objects.filter(pk=debate.pk).exists()


def test_only_the_owner_renames_or_deletes(client, other_user, debate):
    client.force_login(other_user)

    assert client.get(f"/debates/{debate.id}/delete/").status_code == 404
    assert client.post(f"/debates/{debate.id}/delete/").status_code == 404
    assert client.post(f"/debates/{debate.id}/rename/", {"topic": "Mine now"}).status_code == 404
    debate.refresh_from_db()
    assert debate.topic == "Is hard money the future?"


def test_a_running_debate_is_not_deleted_until_it_stops(owner_client, debate, log):
    from debates.services.leases import debate_lease

    log.start()  # running, and a worker holds it:
    with debate_lease(debate.id):
        refused = owner_client.post(f"/debates/{debate.id}/delete/")
    assert refused.status_code == 409 and "This debate is still running: stop it" in refused.content.decode()
    assert Debate.objects.filter(pk=debate.pk).exists()

    log.complete(status="stopped")
    assert owner_client.post(f"/debates/{debate.id}/delete/").status_code == 302
    assert not Debate.objects.filter(pk=debate.pk).exists()
