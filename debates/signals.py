"""Live sockets follow the session that opened them: logging out closes them."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.dispatch import receiver

from debates import broadcast


@receiver(user_logged_out)
def close_the_sessions_sockets(sender, request, user, **kwargs):
    if user is not None and request is not None and hasattr(request, "session"):
        broadcast.session_ended(user_id=user.pk, session_key=request.session.session_key)
