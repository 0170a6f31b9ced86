"""The site's own rows: failed logins counted by the login throttle (faultline/login_throttle.py)."""

from django.db import models


class LoginThrottle(models.Model):
    """Failed logins counted under one key: ("pair", name, address), ("user", name) or
    ("device", name, device id), hashed."""

    key = models.CharField(max_length=64, unique=True)
    name = models.CharField(max_length=64, db_index=True)  # the user name's hash: `login_unlock NAME`
    failures = models.PositiveIntegerField(default=0)
    last_failure = models.DateTimeField(db_index=True)
