"""Runs one debate from start (or from where it stopped) to results, whatever happens to it.

- One orchestrator per debate: the run holds the debate's lease (debates/services/leases.py) from
  the first read to the last write.
- A model that is overloaded or rate-limited past the SDK's retries is waited out with growing
  backoff ("waiting for the model", live on the page) up to ``FAULTLINE_MODEL_WAIT_SECONDS``;
  then the debate fails with that reason and can be resumed.
- Any other failure fails the debate with an event; none leaves it ``running``.
- A paused debate is left alone: the run that paused it let go of it, and only Continue (which
  queues it as ``pending``) or Stop runs it again.
- A debate found ``running`` when a run starts was left by a dead worker: after
  ``FAULTLINE_MAX_RECOVERIES`` of those in a row it is failed instead of tried again.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from debates.models import Debate
from debates.modes import mode_spec
from debates.payloads import DebateFailed, ModelWaiting
from debates.services.events import event_append
from debates.services.leases import DebateBusy, LeaseLost, debate_is_being_run, debate_lease
from gateways.llm.types import ModelError, ModelUnavailable
from orchestration.loop import DebateRun, RunCancelled
from orchestration.patience import model_wait_delays
from orchestration.recovery import requeue_marker_clear

logger = logging.getLogger(__name__)

__all__ = ["DebateBusy", "debate_fail", "debate_is_being_run", "debate_run", "mode_behaviour"]


def mode_behaviour(mode: str):
    """The Mode class a mode's spec row names (debates/modes.py): the record layer names it by
    dotted path, as it may not import orchestration."""
    return import_string(mode_spec(mode).behaviour)


def debate_fail(*, debate_id, reason: str) -> None:
    with transaction.atomic():
        Debate.objects.filter(pk=debate_id).update(
            status=Debate.Status.FAILED, failure_reason=reason, finished_at=timezone.now()
        )
        event_append(debate_id=debate_id, payload=DebateFailed(reason=reason))


def _wait_for_model(debate_id, *, delay: float, waited: float, reason: str) -> None:
    event_append(debate_id=debate_id, payload=ModelWaiting(reason=reason, retry_in=delay, waited=waited))
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:  # a Stop during the wait is honoured by the next run at once
        if Debate.objects.filter(pk=debate_id, stop_requested=True).exists():
            return
        time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))


def _recovery_allowed(debate: Debate) -> bool:
    """Count a run that starts on a debate a dead worker left ``running``; too many fail it."""
    if debate.status != Debate.Status.RUNNING:
        return True
    recoveries = debate.recoveries + 1
    Debate.objects.filter(pk=debate.pk).update(recoveries=recoveries)
    if recoveries <= settings.FAULTLINE_MAX_RECOVERIES:
        logger.warning(
            "Debate %s: picking it up after its worker died (recovery %s of %s)",
            debate.id,
            recoveries,
            settings.FAULTLINE_MAX_RECOVERIES,
        )
        return True
    debate_fail(
        debate_id=debate.id,
        reason=(
            f"The worker running this debate died {recoveries - 1} times in a row (last in phase "
            f"'{debate.phase or 'start'}'), so it was not tried again. Resume it to try once more."
        ),
    )
    return False


def debate_run(*, debate_id) -> Debate:
    """Run (or resume) a debate to its end; raises DebateBusy if another orchestrator holds it."""
    with debate_lease(debate_id) as lease:
        requeue_marker_clear(debate_id=debate_id)
        debate = Debate.objects.get(pk=debate_id)
        if debate.status in (Debate.Status.COMPLETED, Debate.Status.STOPPED, Debate.Status.PAUSED):
            # Paused: nothing runs until the owner continues it (a stale delivery, a sweep).
            return debate
        if _recovery_allowed(debate):
            _run_with_patience(debate, lease)
        debate.refresh_from_db()
        return debate


def _run_with_patience(debate: Debate, lease) -> None:
    delays = model_wait_delays(settings.FAULTLINE_MODEL_WAIT_SECONDS, settings.FAULTLINE_MODEL_FIRST_WAIT_SECONDS)
    waited = 0.0
    while True:
        try:
            DebateRun(debate, mode_behaviour(debate.mode), lease=lease).execute()
            return
        except ModelUnavailable as exc:
            delay = next(delays, None)
            if delay is None:
                logger.warning("Debate %s: the model stayed unavailable for %.0f s: %s", debate.id, waited, exc)
                debate_fail(
                    debate_id=debate.id,
                    reason=(
                        f"The model stayed unavailable for {waited:.0f} s ({exc}). Resume the debate when it is back."
                    ),
                )
                return
            logger.info("Debate %s: the model is unavailable (%s); trying again in %.0f s", debate.id, exc, delay)
            _wait_for_model(debate.id, delay=delay, waited=waited, reason=str(exc))
            waited += delay
            debate.refresh_from_db()
        except ModelError as exc:
            logger.warning("Debate %s failed: %s", debate.id, exc)
            debate_fail(debate_id=debate.id, reason=str(exc))
            return
        except (LeaseLost, RunCancelled) as exc:
            # Nothing more may be written by this run; the recovery sweep picks the debate up.
            logger.error("Debate %s: run abandoned: %s", debate.id, exc)
            return
        except Exception as exc:
            logger.exception("Debate %s failed on an unexpected error", debate.id)
            debate_fail(
                debate_id=debate.id,
                reason=(f"An internal error stopped the debate ({type(exc).__name__}). Resume it to try again."),
            )
            return
