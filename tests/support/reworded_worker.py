"""The shared test worker's Celery app (``celery -A tests.support.reworded_worker worker``): the
site's own (faultline/celery.py), with every prompt reworded once the worker has started and
warmed up, as in the test process (tests/support/rewording.py), when FAULTLINE_TEST_REWORDED_PROMPTS
says so. Test-only: production starts ``-A faultline``."""

from celery.signals import worker_init

from faultline.celery import app
from tests.support import rewording

__all__ = ["app"]


@worker_init.connect  # after the site's own start-up receivers: the engine is imported by then
def _reword_prompts(**kwargs) -> None:
    if rewording.enabled():
        rewording.Rewording().apply()
