"""Failed logins (the site's and the admin's) slow down whoever makes them, and nobody else.

Three counts, each of failed logins under one user name:
- from one client address (faultline/client_address.py: only a trusted proxy can set it): after
  FAULTLINE_LOGIN_FAILURE_LIMIT of them, that (user name, address) pair is locked out for
  FAULTLINE_LOGIN_LOCKOUT_MINUTES, the right password included;
- from everywhere (a botnet's rotating addresses): past the same limit, each next attempt under
  that name waits a growing delay (1 s, 2 s, 4 s ... at most FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS)
  after the last failure; an attempt that comes sooner is refused unread;
- from one browser that has logged in under that name before (a signed device cookie, set at
  each successful login): such a browser is let through the two above, whatever others did,
  and counted on its own, locked out after the limit like an address.
So the failures of someone else, however many and from wherever, neither lock nor slow a user
in a browser they have logged in with before. A successful login clears the name's counts.

The counts are rows (LoginThrottle), keyed by a hash of what they count, so a user name of any
length fits; rows idle for a day are deleted as new failures come in.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_login_failed
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.dispatch import receiver
from django.shortcuts import render
from django.utils import timezone

from faultline.models import LoginThrottle

DEVICE_COOKIE = "faultline_device"
DEVICE_SALT = "faultline.login-device"
DEVICE_MAX_AGE = dt.timedelta(days=365)
IDLE = dt.timedelta(days=1)


@dataclass(frozen=True)
class Refusal:
    message: str
    wait: dt.timedelta
    status: int = 429


def _key(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


def name_key(username: str) -> str:
    return _key("name", username)


def login_unlock(username: str | None = None) -> int:
    """Lift every count under ``username`` (every count when None); how many were lifted."""
    rows = LoginThrottle.objects.all() if username is None else LoginThrottle.objects.filter(name=name_key(username))
    return rows.delete()[0]


def _lockout() -> dt.timedelta:
    return dt.timedelta(minutes=settings.FAULTLINE_LOGIN_LOCKOUT_MINUTES)


def _slowdown(failures: int) -> dt.timedelta:
    over = failures - settings.FAULTLINE_LOGIN_FAILURE_LIMIT
    return dt.timedelta(seconds=min(2 ** min(over, 30), settings.FAULTLINE_LOGIN_SLOWDOWN_MAX_SECONDS))


def device_of(request, username: str) -> str | None:
    """The id of this browser's device cookie if it was set by a login under ``username``."""
    try:
        value = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE.total_seconds()
        )
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("user") != username or not isinstance(value.get("device"), str):
        return None
    return value["device"]


def _keys(request, username: str) -> tuple[str | None, list[str]]:
    """(the key whose lock applies, the keys a failure counts under)."""
    device = device_of(request, username)
    if device:
        key = _key("device", username, device)
        return key, [key]
    pair = _key("pair", username, request.META.get("REMOTE_ADDR", ""))
    return pair, [pair, _key("user", username)]


def login_refusal(request, username: str) -> Refusal | None:
    """Why this attempt under ``username`` is refused unread, or None to check the password."""
    now = timezone.now()
    lock_key, counted = _keys(request, username)
    rows = {row.key: row for row in LoginThrottle.objects.filter(key__in=counted)}
    locked = rows.get(lock_key)
    if locked and locked.failures >= settings.FAULTLINE_LOGIN_FAILURE_LIMIT and now < locked.last_failure + _lockout():
        return Refusal(
            "Too many failed logins for this account from here: logging in from here is paused for now.",
            locked.last_failure + _lockout() - now,
        )
    everywhere = rows.get(_key("user", username))
    if everywhere and everywhere.failures >= settings.FAULTLINE_LOGIN_FAILURE_LIMIT:
        ready = everywhere.last_failure + _slowdown(everywhere.failures)
        if now < ready:
            return Refusal(
                "Many failed logins for this account, from several places: each try waits a little "
                "longer. A browser you have logged in with before is not held up.",
                ready - now,
            )
    return None


def login_failed(request, username: str) -> None:
    now = timezone.now()
    _, counted = _keys(request, username)
    with transaction.atomic():
        LoginThrottle.objects.filter(last_failure__lt=now - IDLE).delete()
        for key in counted:
            # A count idle past the lockout starts again; the name's count lives for a day.
            window = _lockout() if key != _key("user", username) else IDLE
            row, created = LoginThrottle.objects.select_for_update().get_or_create(
                key=key, defaults={"name": name_key(username), "failures": 1, "last_failure": now}
            )
            if not created:
                row.failures = 1 if now - row.last_failure > window else row.failures + 1
                row.last_failure = now
                row.save(update_fields=["failures", "last_failure"])


def login_succeeded(request, username: str) -> None:
    address = request.META.get("REMOTE_ADDR", "")
    keys = [_key("user", username), _key("pair", username, address)]
    if device := device_of(request, username):
        keys.append(_key("device", username, device))
    LoginThrottle.objects.filter(key__in=keys).delete()
    request.login_device = signing.dumps({"user": username, "device": secrets.token_urlsafe(16)}, salt=DEVICE_SALT)


def _username(credentials: dict) -> str:
    return str(credentials.get("username") or "")


class LoginThrottleBackend:
    """First in AUTHENTICATION_BACKENDS: refuses an attempt the counts hold back, before any
    password is checked (Django then tries no other backend). It has no get_user, on purpose: it
    never logs anyone in, so no session names it as the backend that did."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or username is None:
            return None
        refusal = login_refusal(request, str(username))
        if refusal is not None:
            request.login_refusal = refusal
            raise PermissionDenied(refusal.message)
        return None


@receiver(user_login_failed)
def _count_failure(sender, credentials, request=None, **kwargs):
    if request is not None and not getattr(request, "login_refusal", None):
        login_failed(request, _username(credentials))


@receiver(user_logged_in)
def _clear_counts(sender, request, user, **kwargs):
    if request is not None and getattr(request, "login_refusal", None) is None:
        login_succeeded(request, user.get_username())


class LoginThrottleMiddleware:
    """Turns a refused login into the "too many attempts" page (429), and hands a browser that
    just logged in its device cookie."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        refusal = getattr(request, "login_refusal", None)
        if refusal is not None:
            return render(
                request,
                "registration/locked_out.html",
                {"message": refusal.message, "cooloff_timedelta": refusal.wait},
                status=refusal.status,
            )
        if device := getattr(request, "login_device", None):
            response.set_cookie(
                DEVICE_COOKIE,
                device,
                max_age=int(DEVICE_MAX_AGE.total_seconds()),
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
