import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")

app = Celery("faultline")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="faultline.ping")
def ping() -> str:
    """Round trip used by /healthz to prove a worker is consuming the queue."""
    return "pong"
