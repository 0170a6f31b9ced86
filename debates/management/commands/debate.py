"""Pause, continue or stop a debate from the command line, as the owner's buttons on the live page
do: the same lifecycle services, so it works on a debate a worker or another process's
``rundebate`` is running (the run notices at its next turn boundary)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from debates.cli import cli_debate
from debates.services.lifecycle import debate_continue, debate_pause, debate_stop
from projects.cli import cli_user

# action -> (the service, what is said once it is asked)
ACTIONS = {
    "pause": (debate_pause, "pausing after the current turn"),
    "continue": (debate_continue, "continuing where it paused: a worker picks it up"),
    "stop": (debate_stop, "stopping after the current turn"),
}


class Command(BaseCommand):
    help = "Pause, continue or stop one of your debates (running here, on a worker or in another rundebate)."

    def add_arguments(self, parser):
        parser.add_argument("action", choices=list(ACTIONS), help="pause | continue | stop")
        parser.add_argument("debate_id", metavar="DEBATE_ID")
        parser.add_argument("--user", help="Whose debate (default: your login name)")
        parser.add_argument(
            "--auto-continue",
            action="store_true",
            help="continue: run every round left without pausing (the page's Continue all)",
        )

    def handle(self, *args, **options):
        action, debate_id = options["action"], options["debate_id"]
        if options["auto_continue"] and action != "continue":
            raise CommandError("--auto-continue goes with continue")
        debate = cli_debate(debate_id, user=cli_user(options["user"], create=False))
        service, done = ACTIONS[action]
        extra = {"auto_continue": True} if options["auto_continue"] else {}
        try:
            service(debate=debate, **extra)
        except ValidationError as exc:
            raise CommandError(f"cannot {action} debate {debate.id}: {' '.join(exc.messages)}") from exc
        self.stdout.write(f"Debate {debate.id}: {done}.")
