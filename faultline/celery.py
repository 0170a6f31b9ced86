import os
import sys

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

app = Celery("faultline")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# TEMP experiment knob
GIL_SWITCH_SECONDS = float(os.environ.get("FAULTLINE_GIL_SWITCH", "0.001"))


@worker_init.connect
def _switch_often(**kwargs) -> None:
    if GIL_SWITCH_SECONDS > 0:
        sys.setswitchinterval(GIL_SWITCH_SECONDS)


@app.task(name="faultline.ping")
def ping() -> str:
    """Round trip used by /healthz to prove a worker is consuming the queue."""
    return "pong"
