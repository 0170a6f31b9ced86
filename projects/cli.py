"""What the command line shares: the user it acts for."""

from __future__ import annotations

import getpass

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError


def default_username() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "cli"


def cli_user(username: str | None, *, create: bool):
    """The account a command acts for: --user, else the login name of whoever runs it. Created
    (with no password: it cannot log in until one is set) when ``create`` and it does not exist."""
    username = (username or default_username()).strip()
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        if not create:
            raise CommandError(f"no user called '{username}' (give --user)")
        user = User.objects.create_user(username=username, password=None)
    return user
