"""Invite someone to one of your debates, as the members page does: by user name (the answer is the
same whether or not the name has an account), or a single-use link to pass on."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from debates.cli import cli_debate
from debates.services.members import debate_invite_link_create, debate_member_add
from projects.cli import cli_user


class Command(BaseCommand):
    help = "Invite a person to read one of your debates and take sides on it."

    def add_arguments(self, parser):
        parser.add_argument("debate_id", metavar="DEBATE_ID")
        parser.add_argument("--user", help="Whose debate (default: your login name)")
        parser.add_argument("--member", help="The user name of the person to invite")
        parser.add_argument("--link", action="store_true", help="Print a single-use invite link instead")

    def handle(self, *args, **options):
        if bool(options["member"]) == options["link"]:
            raise CommandError("give either --member NAME or --link")
        debate = cli_debate(options["debate_id"], user=cli_user(options["user"], create=False))
        if options["link"]:
            token = debate_invite_link_create(debate=debate)
            self.stdout.write(f"Debate {debate.id}: invite link {reverse('invite_accept', args=[token])}")
            return
        debate_member_add(debate=debate, username=options["member"])
        self.stdout.write(f"Debate {debate.id}: if '{options['member']}' has an account, they are now a member.")
