"""What the debate commands share: the debate a command may act on for its user, and what a debate
run in the foreground is doing now."""

from __future__ import annotations

import logging
import threading
import time

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Q

from debates.activity import debate_activity
from debates.models import Debate, Event
from debates.state import apply, fold

logger = logging.getLogger(__name__)


def cli_debate(debate_id: str, *, user) -> Debate:
    """The user's own debate ``debate_id``. A debate of anyone else gets the same one line as one
    that does not exist (as the site's 404), so a command does not reveal that it exists."""
    try:
        debate = Debate.objects.filter(pk=debate_id, owner=user).first()
    except ValidationError:  # not a debate id at all
        debate = None
    if debate is None:
        raise CommandError(f"no debate with id {debate_id} (for user {user.username})")
    return debate


def cli_debate_on_team(debate_id: str, *, user) -> Debate:
    """The debate ``debate_id`` if ``user`` owns it or is one of its members; the same one line as
    ``cli_debate`` otherwise."""
    try:
        debate = Debate.objects.filter(Q(owner=user) | Q(members__user=user), pk=debate_id).distinct().first()
    except ValidationError:  # not a debate id at all
        debate = None
    if debate is None:
        raise CommandError(f"no debate with id {debate_id} (for user {user.username})")
    return debate


class ActivityLines:
    """While a debate runs in this process (``rundebate``), what it is doing now, on stderr: the
    live page's banner line (debates/activity.py), each time it changes, with the seconds since the
    command began. Read from the event log every ``every`` seconds on a thread of its own, so the
    run itself never waits for it.

        with ActivityLines(debate.id, write=self.stderr.write):
            debate_run(debate_id=debate.id)
    """

    def __init__(self, debate_id, *, write, every: float = 0.5) -> None:
        self.debate_id = debate_id
        self.write = write
        self.every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="activity-lines", daemon=True)
        self._began = time.monotonic()
        self._shown: list[str] = []
        self._view = None  # the debate folded from its log, kept up to date by poll()

    def __enter__(self) -> ActivityLines:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _watch(self) -> None:
        try:
            while True:
                self.poll()
                if self._stop.wait(self.every):
                    return
        except Exception:
            logger.exception("The activity lines of debate %s stopped", self.debate_id)
        finally:
            connection.close()  # this thread's own

    def poll(self) -> None:
        """Fold the events written since the last look, and write each line that is new."""
        if self._view is None:
            self._view = fold(self.debate_id, [])
            self._view.mode = Debate.objects.values_list("mode", flat=True).get(pk=self.debate_id)
        view = self._view
        new = Event.objects.filter(debate_id=self.debate_id, seq__gt=view.last_seq).order_by("seq")
        for seq, kind, payload in new.values_list("seq", "kind", "payload"):
            apply(view, seq, kind, payload)
        # Pending only means "not begun yet" here: the debate runs in this very process.
        activity = debate_activity(view) if view.status != "pending" else None
        lines = activity.lines() if activity is not None else []
        for line in lines:
            if line not in self._shown:
                self.write(f"[{time.monotonic() - self._began:4.0f} s] {line}")
        self._shown = lines
