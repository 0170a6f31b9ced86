"""Picking up debates whose worker died, without anyone clicking anything.

Every worker sweeps on start and then every ``FAULTLINE_RECOVERY_SWEEP_SECONDS``: a debate that is
``running`` with nobody holding its lease, or ``pending`` for longer than a queued task should
wait, is queued again; its run continues after its last event. A ``paused`` debate is neither: its
run let go of it on purpose, and only its owner's Continue (or Stop) queues it again. The lease makes a sweep racing
another sweep, a resume or a redelivered task harmless (the second run finds the debate busy), and
a short per-debate marker in the cache keeps sweeps from queueing the same debate over and over
while the queue is backed up. The run that picks the debate up clears the marker: if its worker
dies too, the next sweep queues the debate again at once (benchmarks/faults.py, kill-worker).

The same sweep queues a look at each persona build waiting on a Message Batch that nobody has
looked at for a while (personas.services.builds.persona_builds_look_again): its queued look was
lost with a worker or with Redis, and without one the draft would wait forever.
"""

from __future__ import annotations

import logging
import threading

from celery import current_app
from celery.signals import worker_ready, worker_shutdown
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from debates.models import Debate
from debates.services.lifecycle import debate_is_orphaned
from personas.services.builds import persona_builds_look_again

logger = logging.getLogger(__name__)

REQUEUE_GRACE_SECONDS = 600
_sweeper_stop = threading.Event()


def _queued_marker(debate_id) -> str:
    return f"faultline:recovery-queued:{debate_id}"


def requeue_marker_clear(*, debate_id) -> None:
    """A run holds the debate now, so the marker has done its job. Left in place, it would hide
    the debate from every sweep for the rest of the grace if this run's worker died as well."""
    try:
        cache.delete(_queued_marker(debate_id))
    except Exception:  # Redis down for a moment: the marker expires by itself
        logger.warning("Could not clear the recovery marker of debate %s", debate_id, exc_info=True)


def debates_recover() -> list:
    """Queue every orphaned debate again; returns the ids queued."""
    queued = []
    candidates = Debate.objects.filter(status__in=[Debate.Status.RUNNING, Debate.Status.PENDING])
    for debate in candidates.only("id", "status", "created_at"):
        if not debate_is_orphaned(debate=debate):
            continue
        if not cache.add(_queued_marker(debate.id), 1, timeout=REQUEUE_GRACE_SECONDS):
            continue  # queued by a recent sweep; that task has not started yet
        logger.warning("Debate %s was left %s by a worker that is gone; queueing it again", debate.id, debate.status)
        current_app.send_task("orchestration.run_debate", args=[str(debate.id)])
        queued.append(debate.id)
    return queued


def _sweep_forever(every: float) -> None:
    while True:
        for sweep in (debates_recover, persona_builds_look_again):
            try:
                sweep()
            except Exception:
                logger.exception("The recovery sweep %s failed; trying again in %.0f s", sweep.__name__, every)
        connection.close()
        if _sweeper_stop.wait(every):
            return


@worker_ready.connect
def _start_sweeper(**kwargs) -> None:
    every = settings.FAULTLINE_RECOVERY_SWEEP_SECONDS
    if every <= 0:
        return  # turned off (the test suite's shared worker)
    _sweeper_stop.clear()
    threading.Thread(target=_sweep_forever, args=(every,), name="faultline-recovery", daemon=True).start()


@worker_shutdown.connect
def _stop_sweeper(**kwargs) -> None:
    _sweeper_stop.set()
