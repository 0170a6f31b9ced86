"""Logging filters referenced from settings.LOGGING (kept free of Django imports so settings can name them)."""

import logging


class HealthProbeFilter(logging.Filter):
    """Drop django.request's "Service Unavailable" errors for /healthz.

    A 503 there is the health check doing its job (the launcher polls it while the worker starts);
    the view logs what is down as a warning instead of a server error with a traceback-shaped line.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        return not (getattr(record, "status_code", None) == 503 and getattr(request, "path", "") == "/healthz")
