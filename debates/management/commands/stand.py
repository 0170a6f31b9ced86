"""Take a side on a crux of a debate you own or were invited to, as the faultline map's form does."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from debates.cli import cli_debate_on_team
from debates.services.sides import side_take
from projects.cli import cli_user


class Command(BaseCommand):
    help = "Record your side (yes, no or nuanced) on a crux of a debate, and what would change your mind."

    def add_arguments(self, parser):
        parser.add_argument("debate_id", metavar="DEBATE_ID")
        parser.add_argument("--user", help="Who takes the side (default: your login name)")
        parser.add_argument(
            "--crux", type=int, required=True, help="N as numbered on the results page (0: the debate's question)"
        )
        parser.add_argument("--side", required=True, help="yes | no | nuanced")
        parser.add_argument("--because", default="", help="What would change your mind, in one sentence")

    def handle(self, *args, **options):
        user = cli_user(options["user"], create=False)
        debate = cli_debate_on_team(options["debate_id"], user=user)
        try:
            side = side_take(
                debate=debate, user=user, crux=options["crux"], side=options["side"], because=options["because"]
            )
        except ValidationError as refused:
            raise CommandError(" ".join(refused.messages)) from refused
        crux = "the question" if options["crux"] == 0 else f"crux {options['crux']}"
        self.stdout.write(f"Debate {debate.id}: {user.username} is {side.side} on {crux}.")
