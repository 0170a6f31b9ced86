import importlib
import logging
import os
import time

from celery import Celery
from celery.signals import worker_init, worker_process_init

from ops import connections, worker_liveness
from ops.heap import freeze_start_up_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

logger = logging.getLogger(__name__)

app = Celery("faultline")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="faultline.ping")
def ping() -> str:
    """Round trip used by /healthz to prove a worker is consuming the queue."""
    return "pong"


@worker_init.connect
def _worker_pool(sender=None, **kwargs) -> None:
    """A worker's database pool is its budget for its concurrency (ops/connections.py), set before
    its first connection makes the pool."""
    from django.conf import settings

    concurrency = getattr(sender, "concurrency", None) or 1
    pool = settings.DATABASES["default"]["OPTIONS"]["pool"]
    pool["max_size"] = connections.pool_size("worker", worker_concurrency=concurrency)


@worker_init.connect
def _heartbeat(sender=None, **kwargs) -> None:
    """Tell the supervisor, if it asked, whether this worker still takes work (worker_liveness)."""
    worker_liveness.heartbeat_start(sender)


@worker_init.connect
@worker_process_init.connect  # a prefork pool's children (ours is a thread pool: worker_init alone)
def warm_up(**kwargs) -> None:
    """Before the worker takes a debate, pay what the first debates of a process would otherwise all
    pay at the same moment, while the worker pushes their first events: the debate engine's import
    (orchestration/tasks.py imports it at the first run, so that the web process, which only queues
    runs, never does), the model provider's import and first calls, the offline embedder's load.
    The web process never runs this. A failure is logged and the worker starts anyway: the first
    debate then pays, as it did before."""
    # Imported here: this module is imported with the faultline package, before Django's apps are.
    from gateways.embeddings import gateway as embeddings
    from gateways.llm import gateway as llm

    started = time.monotonic()
    steps = (
        ("debate engine", lambda: importlib.import_module("orchestration.run")),
        ("model provider", llm.warm_up),
        ("embedder", embeddings.warm_up),
    )
    for what, warm in steps:
        try:
            warm()
        except Exception:
            logger.exception("Warming up the %s failed; the first debate will pay for it", what)
    logger.info("Warmed up in %.0f ms", (time.monotonic() - started) * 1000)


@worker_init.connect
@worker_process_init.connect
def _set_start_up_heap_aside(**kwargs) -> None:
    """After the warm-up (receivers run in the order they were connected): what is loaded by now
    lives as long as the worker (ops/heap.py)."""
    freeze_start_up_heap("worker")
