"""A persona drafted at half price in the browser: the drafting call goes out as a Message Batch
(the real SDK against the fake Messages API), the worker lets go while it waits, a look queued
after it (or a recovery sweep's, when that look is lost) reads the answer once, and the ledger
records the call once, at the batch price. Past the longest wait the batch is canceled and the
draft is made directly. The worker's tasks are run here directly; what they queue is captured."""

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from devtools.scripted_debate import MADE_UP_QUOTE, DebateScript
from gateways.llm import gateway
from gateways.llm.models import ModelCall
from gateways.llm.pricing import estimate_cost
from personas.models import PersonaBuild
from personas.services.builds import CANCEL_TASK, LOOK_TASK, persona_builds_look_again
from personas.tasks import cancel_persona_build_batch, draft_persona_build, look_at_persona_build_batch
from tests.personas.test_persona_build_pages import _start

pytestmark = pytest.mark.django_db


@pytest.fixture
def builder_api(fake_anthropic):
    fake_anthropic.responder = DebateScript().respond
    return fake_anthropic


@pytest.fixture
def queued(monkeypatch):
    """What the services queue (task name, args), instead of sending it to a worker."""
    sent = []
    monkeypatch.setattr(
        "personas.services.builds.current_app.send_task", lambda name, args, **options: sent.append((name, args))
    )
    return sent


def _batched_build(alice, django_capture_on_commit_callbacks) -> PersonaBuild:
    with django_capture_on_commit_callbacks(execute=True):
        response = _start(alice, batched="on")
    return PersonaBuild.objects.get(pk=response["Location"].split("/")[-2])


def _drafting_rows():
    return list(ModelCall.objects.filter(phase="persona_build", role="synthesis"))


def test_the_half_price_choice_is_offered_only_where_the_provider_batches(alice, fake_anthropic, settings):
    assert 'name="batched"' in alice.get("/personas/build/").content.decode()

    settings.FAULTLINE_LLM = "local"  # the offline model has no batches
    gateway.reset_provider()
    assert 'name="batched"' not in alice.get("/personas/build/").content.decode()


def test_a_batched_draft_is_sent_once_read_once_and_billed_at_half_price(
    alice, user, builder_api, queued, django_capture_on_commit_callbacks
):
    builder_api.batch_polls = 1  # the first look finds it still in progress
    build = _batched_build(alice, django_capture_on_commit_callbacks)
    assert build.batched

    draft_persona_build(build.pk)
    build.refresh_from_db()
    assert build.status == "drafting" and build.batch_id and build.waits_on_batch
    assert len(builder_api.batched) == 1 and queued[-1] == (LOOK_TASK, [build.pk])
    assert _drafting_rows() == []  # nothing answered yet, nothing billed
    page = alice.get(f"/personas/build/{build.pk}/").content.decode()
    assert 'id="build-batch"' in page and "at half price" in page and 'hx-trigger="every 15s"' in page
    assert "Drafting at half price, waiting in the batch queue" in alice.get("/personas/").content.decode()
    with override_settings(FAULTLINE_BATCH_POLL_SECONDS=1):  # the page looks no more often than the worker
        assert 'hx-trigger="every 2s"' in alice.get(f"/personas/build/{build.pk}/").content.decode()

    # A redelivered draft task never sends the batch again: it queues a look.
    draft_persona_build(build.pk)
    assert len(builder_api.batched) == 1 and queued[-1] == (LOOK_TASK, [build.pk])

    with django_capture_on_commit_callbacks(execute=True):
        look_at_persona_build_batch(build.pk)  # in progress: looked at, and a look queued again
    build.refresh_from_db()
    assert build.status == "drafting" and build.batch_looked_at > build.batch_sent_at
    assert queued[-1] == (LOOK_TASK, [build.pk]) and _drafting_rows() == []

    look_at_persona_build_batch(build.pk)
    build.refresh_from_db()
    assert build.status == "ready"
    assert alice.get(f"/personas/build/{build.pk}/status/")["HX-Refresh"] == "true"
    (row,) = _drafting_rows()
    assert row.role == "synthesis" and row.cost_usd == estimate_cost(
        model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens, batched=True
    )
    assert row.cost_usd < estimate_cost(model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens)
    assert len(builder_api.requests) == 1  # the batch's request, answered there: none made directly
    contract = build.draft["contract"]
    quotes = [e["content"] for e in contract["anchorExcerpts"]] + [
        e["response"] for e in contract["voice"]["voiceExamples"]
    ]
    assert quotes and all(MADE_UP_QUOTE not in quote for quote in quotes)

    look_at_persona_build_batch(build.pk)  # a late, redelivered look changes nothing
    assert len(_drafting_rows()) == 1


def test_a_batch_past_its_longest_wait_is_canceled_and_drafted_directly(
    alice, builder_api, queued, settings, django_capture_on_commit_callbacks
):
    builder_api.batch_polls = 1000  # this batch would never end by itself
    settings.FAULTLINE_BATCH_MAX_WAIT_SECONDS = 3600
    build = _batched_build(alice, django_capture_on_commit_callbacks)
    draft_persona_build(build.pk)
    PersonaBuild.objects.filter(pk=build.pk).update(batch_sent_at=timezone.now() - timedelta(hours=2))

    look_at_persona_build_batch(build.pk)  # past the wait: canceled
    build.refresh_from_db()
    assert build.status == "drafting" and build.batch_canceled_at is not None
    assert "it was canceled at" in alice.get(f"/personas/build/{build.pk}/status/").content.decode()

    look_at_persona_build_batch(build.pk)  # the canceled batch answered nothing: made directly
    build.refresh_from_db()
    assert build.status == "ready"
    (row,) = _drafting_rows()
    assert row.cost_usd == estimate_cost(
        model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens
    )
    assert len(builder_api.batched) == 1 and len(builder_api.requests) == 1  # the canceled one answered nothing


def test_a_lost_look_is_queued_again_by_the_recovery_sweep(
    alice, builder_api, queued, django_capture_on_commit_callbacks
):
    builder_api.batch_polls = 1000
    build = _batched_build(alice, django_capture_on_commit_callbacks)
    draft_persona_build(build.pk)
    assert persona_builds_look_again() == []  # just looked at: nothing overdue
    PersonaBuild.objects.filter(pk=build.pk).update(batch_looked_at=timezone.now() - timedelta(minutes=30))
    assert 'id="build-stale"' in alice.get(f"/personas/build/{build.pk}/status/").content.decode()

    queued.clear()
    assert persona_builds_look_again() == [build.pk]
    assert queued == [(LOOK_TASK, [build.pk])]
    assert persona_builds_look_again() == []  # the sweep moved the look's time: one look queued, not one a sweep
    assert 'id="build-stale"' not in alice.get(f"/personas/build/{build.pk}/status/").content.decode()


def test_a_build_that_asked_for_half_price_without_batches_is_drafted_directly(
    alice, builder_api, queued, django_capture_on_commit_callbacks, monkeypatch
):
    build = _batched_build(alice, django_capture_on_commit_callbacks)
    # The batch cannot be sent (the API refuses it): the owner still gets the draft, at full price.
    monkeypatch.setattr(type(gateway.provider()), "batch_submit", _refused)
    draft_persona_build(build.pk)
    build.refresh_from_db()
    assert build.status == "ready" and not build.batch_id
    (row,) = _drafting_rows()
    assert row.cost_usd == estimate_cost(
        model=row.model, input_tokens=row.input_tokens, output_tokens=row.output_tokens
    )


def _refused(self, requests):
    from gateways.llm.types import ModelError

    raise ModelError("batches are switched off for this key")


@pytest.mark.django_db(transaction=True)
def test_a_look_while_another_holds_the_build_does_nothing(
    alice, builder_api, queued, django_capture_on_commit_callbacks
):
    """Two looks at once (a queued one and a sweep's): the second finds the row locked and lets go
    without asking the API, so the answer is read, and billed, once."""
    import threading

    from django.db import connection, transaction

    build = _batched_build(alice, django_capture_on_commit_callbacks)
    draft_persona_build(build.pk)
    batch = builder_api.batches[PersonaBuild.objects.get(pk=build.pk).batch_id]

    def look_beside():
        try:
            look_at_persona_build_batch(build.pk)
        finally:
            connection.close()

    with transaction.atomic():
        PersonaBuild.objects.select_for_update().get(pk=build.pk)  # a look in progress holds the row
        beside = threading.Thread(target=look_beside)
        beside.start()
        beside.join(30)
    assert not beside.is_alive()
    assert batch.polls == 0 and _drafting_rows() == []  # it never asked the API
    look_at_persona_build_batch(build.pk)  # the holder's look: in progress (batch_polls 1)...
    look_at_persona_build_batch(build.pk)  # ...then read, once
    assert PersonaBuild.objects.get(pk=build.pk).status == "ready" and len(_drafting_rows()) == 1


def test_discarding_a_draft_that_waits_on_its_batch_cancels_the_batch(
    alice, builder_api, queued, django_capture_on_commit_callbacks
):
    builder_api.batch_polls = 1000
    build = _batched_build(alice, django_capture_on_commit_callbacks)
    draft_persona_build(build.pk)
    batch_id = PersonaBuild.objects.get(pk=build.pk).batch_id

    with django_capture_on_commit_callbacks(execute=True):
        response = alice.post(f"/personas/build/{build.pk}/discard/")
    assert response.status_code == 302 and not PersonaBuild.objects.filter(pk=build.pk).exists()
    assert queued[-1] == (CANCEL_TASK, [batch_id])  # a worker cancels it, not the web request
    assert builder_api.batches[batch_id].status == "in_progress"

    cancel_persona_build_batch(batch_id)
    assert builder_api.batches[batch_id].status == "ended"
    assert all(r["result"]["type"] == "canceled" for r in builder_api.batches[batch_id].results)
    look_at_persona_build_batch(build.pk)  # a look still queued for it finds nothing to do
    assert _drafting_rows() == []
