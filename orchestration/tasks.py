"""Celery tasks: thin, they load by id and call the service."""

from __future__ import annotations

import logging

from celery import shared_task

from debates.models import Debate
from debates.services.leases import DebateBusy
from orchestration import recovery  # noqa: F401  (connects the worker's recovery sweep)

logger = logging.getLogger(__name__)


@shared_task(name="orchestration.run_debate", acks_late=True)
def run_debate(debate_id: str) -> None:
    from orchestration.run import debate_run

    try:
        debate_run(debate_id=debate_id)
    except Debate.DoesNotExist:
        logger.info("Debate %s was deleted before a worker got to it", debate_id)
    except DebateBusy:
        # A second delivery of a debate another orchestrator is running (a redelivery, a recovery
        # sweep racing a resume): the holder finishes it; this one has nothing to do.
        logger.info("Debate %s is already being run elsewhere; this delivery is dropped", debate_id)


@shared_task(name="orchestration.recover_debates")
def recover_debates() -> list[str]:
    from orchestration.recovery import debates_recover

    return [str(debate_id) for debate_id in debates_recover()]
