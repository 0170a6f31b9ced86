"""A task for tests that need a worker busy for a while (``celery worker -I tests.support.worker_tasks``)."""

import time
from pathlib import Path

from faultline.celery import app


@app.task(name="tests.hold", acks_late=True)
def hold(marker: str, seconds: float) -> None:
    """Note the start in ``marker``, keep the worker's thread ``seconds``, note the end."""
    path = Path(marker)
    with path.open("a") as log:
        log.write("started\n")
    time.sleep(seconds)
    with path.open("a") as log:
        log.write("finished\n")
