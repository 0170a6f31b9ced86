"""Print a debate's faultline map, as its results page shows it to the owner and the members: per
crux each person's and each persona's side, then the camps with their members, then the crux that
splits the two largest camps most."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from debates.cli import cli_debate_on_team
from debates.exports import faultlines_lines
from debates.faultline_map import faultline_map_of
from debates.selectors import debate_view
from projects.cli import cli_user


class Command(BaseCommand):
    help = "Print where the people and the personas of a debate stand on each crux, their camps and what splits them."

    def add_arguments(self, parser):
        parser.add_argument("debate_id", metavar="DEBATE_ID")
        parser.add_argument("--user", help="Who asks: the owner or a member (default: your login name)")

    def handle(self, *args, **options):
        debate = cli_debate_on_team(options["debate_id"], user=cli_user(options["user"], create=False))
        faultlines = faultline_map_of(debate=debate, view=debate_view(debate_id=debate.id), names=True)
        for line in faultlines_lines(faultlines):
            self.stdout.write(line)
