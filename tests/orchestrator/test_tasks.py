"""Celery's redelivery is set on purpose: a debate outlives the visibility timeout never, and a
second delivery of a debate someone is running is not an error."""

import logging

import pytest
from django.conf import settings

from debates.models import Debate, Event
from debates.services.leases import debate_lease
from faultline.celery import app
from orchestration.tasks import run_debate

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_visibility_timeout_outlasts_the_longest_debate():
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    # A long debate on a slow model, plus the longest model outage it waits out.
    assert visibility >= 6 * 3600 + settings.FAULTLINE_MODEL_WAIT_SECONDS
    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost


def test_a_second_delivery_of_a_debate_being_run_is_dropped_quietly(new_debate, caplog):
    debate = new_debate()
    with debate_lease(debate.id), caplog.at_level(logging.INFO, logger="orchestration.tasks"):
        run_debate(str(debate.id))  # what a redelivered or duplicate task does: no exception

    assert "already being run elsewhere" in caplog.text
    assert Debate.objects.get(pk=debate.pk).status == Debate.Status.PENDING
    assert not Event.objects.filter(debate=debate).exists()


def test_a_task_for_a_deleted_debate_is_dropped_quietly(new_debate, caplog):
    debate = new_debate()
    debate_id = str(debate.id)
    debate.delete()
    with caplog.at_level(logging.INFO, logger="orchestration.tasks"):
        run_debate(debate_id)
    assert "was deleted" in caplog.text
