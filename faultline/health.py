"""GET /healthz: is every part Faultline needs up? 200 when all are, 503 otherwise.

``/healthz?live`` only says that the web process answers (the launcher's liveness probe).
Anyone (a load balancer, the launcher) gets which parts are up; only staff get the details
(worker names, versions, error text), which tell an attacker about the deployment. It never
redirects to a login page: a probe has no session.
"""

import logging

import redis
from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from faultline.celery import app as celery_app
from gateways.llm import gateway

logger = logging.getLogger(__name__)


def _database() -> dict:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    if row is None:
        return {"ok": False, "detail": "connected, but the pgvector extension is not installed (run migrate)"}
    return {"ok": True, "detail": f"{connection.vendor}, pgvector {row[0]}"}


def _redis() -> dict:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2)
    client.ping()
    return {"ok": True, "detail": "ping ok"}


def _worker() -> dict:
    replies = celery_app.control.ping(timeout=1.0)
    if not replies:
        return {"ok": False, "detail": "no Celery worker answered within 1 s"}
    return {"ok": True, "detail": f"{len(replies)} worker(s): " + ", ".join(sorted(k for r in replies for k in r))}


def _model_provider() -> dict:
    status = gateway.provider_status()
    return {"ok": status.ready, "detail": status.detail, "provider": status.provider}


CHECKS = {"database": _database, "redis": _redis, "worker": _worker, "model_provider": _model_provider}


@never_cache
def healthz(request):
    if "live" in request.GET:
        # The launcher's liveness probe (ops/web_liveness.py): this process answers. The
        # services are the full check's business; their being down is no reason to restart it.
        return JsonResponse({"live": True})
    report = {}
    for name, check in CHECKS.items():
        try:
            report[name] = check()
        except Exception as exc:  # a health check reports failures, it does not raise them
            report[name] = {"ok": False, "detail": f"{type(exc).__name__}: {exc}"}
    healthy = all(part["ok"] for part in report.values())
    if not healthy:
        down = "; ".join(f"{name}: {part['detail']}" for name, part in report.items() if not part["ok"])
        logger.warning("healthz: not ready: %s", down)
    if not (request.user.is_authenticated and request.user.is_staff):
        report = {name: {"ok": part["ok"]} for name, part in report.items()}
    return JsonResponse({"ok": healthy, **report}, status=200 if healthy else 503)
