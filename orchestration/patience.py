"""How long to wait out a model that is overloaded or rate-limited past the SDK's own retries."""

from __future__ import annotations

import logging
import threading

from django.conf import settings

from gateways.llm.types import ModelUnavailable

logger = logging.getLogger(__name__)

LONGEST_WAIT_SECONDS = 60.0


def model_wait_delays(limit_seconds: float, first_seconds: float = 2.0):
    """2, 4, 8 ... 60, 60 ... seconds (from ``first_seconds``), until waiting longer would pass
    ``limit_seconds`` in all."""
    waited, delay = 0.0, first_seconds
    while waited + delay <= limit_seconds:
        yield delay
        waited += delay
        delay = min(delay * 2, LONGEST_WAIT_SECONDS)


def patiently(call, *, cancelled: threading.Event | None = None):
    """``call()``, tried again with growing waits while the model is unavailable, for up to
    ``FAULTLINE_MODEL_WAIT_SECONDS``; then (or once the run is cancelled) the last error is raised.
    ``call`` must be safe to repeat (every step of a debate is: it resumes from what is saved)."""
    delays = model_wait_delays(settings.FAULTLINE_MODEL_WAIT_SECONDS, settings.FAULTLINE_MODEL_FIRST_WAIT_SECONDS)
    while True:
        try:
            return call()
        except ModelUnavailable:
            delay = next(delays, None)
            if delay is None:
                raise
            logger.info("The model is unavailable; trying again in %.0f s", delay)
            if (cancelled or threading.Event()).wait(delay):
                raise
