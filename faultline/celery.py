import os

from celery import Celery
from celery.signals import worker_init

from faultline import worker_liveness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

app = Celery("faultline")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="faultline.ping")
def ping() -> str:
    """Round trip used by /healthz to prove a worker is consuming the queue."""
    return "pong"


@worker_init.connect
def _heartbeat(sender=None, **kwargs) -> None:
    """Tell the supervisor, if it asked, whether this worker still takes work (worker_liveness)."""
    worker_liveness.heartbeat_start(sender)
