"""Celery tasks: thin, they load by id and call the service."""

from __future__ import annotations

import logging

from celery import shared_task

from debates.models import Debate, Event
from debates.payloads import EventKind
from debates.services.leases import DebateBusy
from orchestration import recovery  # noqa: F401  (connects the worker's recovery sweep)

logger = logging.getLogger(__name__)


BUSY_RETRIES = 10


@shared_task(name="orchestration.run_debate", acks_late=True, bind=True)
def run_debate(self, debate_id: str) -> None:
    from orchestration.run import debate_run

    try:
        debate_run(debate_id=debate_id)
    except Debate.DoesNotExist:
        logger.info("Debate %s was deleted before a worker got to it", debate_id)
    except DebateBusy as busy:
        # A second delivery of a debate another orchestrator is running (a redelivery, a recovery
        # sweep racing a resume): the holder finishes it; this one has nothing to do. Unless the
        # debate was just continued and is still queued: then the holder may be the run that
        # paused it, letting go of it this instant, and this delivery must run it a moment later.
        if _continued_and_queued(debate_id):
            raise self.retry(exc=busy, countdown=1, max_retries=BUSY_RETRIES) from busy
        logger.info("Debate %s is already being run elsewhere; this delivery is dropped", debate_id)


def _continued_and_queued(debate_id) -> bool:
    last = Event.objects.filter(debate_id=debate_id).order_by("-seq").values_list("kind", flat=True).first()
    pending = Debate.objects.filter(pk=debate_id, status=Debate.Status.PENDING).exists()
    return pending and last == EventKind.DEBATE_CONTINUED


@shared_task(name="orchestration.recover_debates")
def recover_debates() -> list[str]:
    from orchestration.recovery import debates_recover

    return [str(debate_id) for debate_id in debates_recover()]
