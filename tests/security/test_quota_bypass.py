"""The concurrent-debate limit holds when the worker is busy: a debate queued longer than the 90 s
after which recovery calls it orphaned (and queues it again) still takes its place until it ends.

Before, with a limit of 1 and a worker busy elsewhere, one user had 2 debates running and 1 queued:
each queued debate stopped counting 90 s after it was started."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from debates.models import Debate
from debates.services import lifecycle
from debates.services.lifecycle import STALE_AFTER_SECONDS, debate_is_orphaned
from orchestration import recovery
from tests.factories import DeckFactory, PersonaFactory

pytestmark = pytest.mark.django_db

LIMIT_MESSAGE = "You already have 1 debate running, and your limit is 1 at once."


@pytest.fixture
def hand():
    personas = [PersonaFactory(persona_id="ada-quota"), PersonaFactory(persona_id="bram-quota")]
    return DeckFactory(slug="quota", name="Quota", personas=personas), personas


@pytest.fixture
def no_worker_consuming(monkeypatch):
    """What debate_start and the recovery sweep hand to the queue, recorded: nothing consumes it,
    as when every worker is busy with other people's debates."""
    sent = []
    monkeypatch.setattr(lifecycle, "run_enqueue", lambda *, debate_id: sent.append(str(debate_id)))
    monkeypatch.setattr(recovery.current_app, "send_task", lambda name, args: sent.append(args[0]))
    return sent


def queued_for(debate: Debate, *, seconds: float) -> Debate:
    Debate.objects.filter(pk=debate.pk).update(created_at=timezone.now() - dt.timedelta(seconds=seconds))
    debate.refresh_from_db()
    return debate


def test_a_debate_queued_past_the_orphan_rule_still_counts_against_the_limit(
    client, user, hand, no_worker_consuming, settings
):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 1
    deck, personas = hand
    first = lifecycle.debate_start(owner=user, topic="First", personas=personas, deck=deck)
    first = queued_for(first, seconds=STALE_AFTER_SECONDS + 600)
    assert debate_is_orphaned(debate=first)  # what recovery sees: queued long ago, no worker on it
    assert recovery.debates_recover() == [first.id]  # the sweep queues it again; it frees nothing

    client.force_login(user)
    response = client.post(
        "/debates/new/",
        {
            "deck": deck.pk,
            "personas": [p.pk for p in personas],
            "topic": "Second",
            "length": "short",
            "mode": "dialogue",
        },
    )

    assert response.status_code == 200
    assert LIMIT_MESSAGE in response.content.decode()
    assert list(Debate.objects.filter(owner=user).values_list("topic", flat=True)) == ["First"]


def test_old_queued_and_running_debates_all_count_until_they_end(user, hand, no_worker_consuming, settings):
    settings.FAULTLINE_MAX_CONCURRENT_DEBATES = 2
    deck, personas = hand
    running = lifecycle.debate_start(owner=user, topic="Running", personas=personas, deck=deck)
    Debate.objects.filter(pk=running.pk).update(status=Debate.Status.RUNNING)
    waiting = queued_for(
        lifecycle.debate_start(owner=user, topic="Waiting", personas=personas, deck=deck), seconds=3600
    )
    assert debate_is_orphaned(debate=waiting)

    with pytest.raises(ValidationError, match="You already have 2 debates running, and your limit is 2 at once."):
        lifecycle.debate_start(owner=user, topic="Third", personas=personas, deck=deck)

    Debate.objects.filter(pk=running.pk).update(status=Debate.Status.COMPLETED)  # one ends: one place frees
    lifecycle.debate_start(owner=user, topic="Third", personas=personas, deck=deck)
    with pytest.raises(ValidationError, match="You already have 2 debates running"):
        lifecycle.debate_start(owner=user, topic="Fourth", personas=personas, deck=deck)
    waiting.refresh_from_db()
    lifecycle.debate_resume(debate=waiting)  # its own resume is not refused: it holds its own place
