"""List a project's notes, one per line: id, updated, tags, title."""

from django.core.management.base import BaseCommand, CommandError

from projects.cli import cli_user
from projects.selectors import project_named


class Command(BaseCommand):
    help = "List the notes of one of your projects, one per line (id, last update, tags, title)."

    def add_arguments(self, parser):
        parser.add_argument("--project", required=True, help="The project's name")
        parser.add_argument("--user", help="Whose project (default: your login name, as rundebate uses)")

    def handle(self, *args, **options):
        user = cli_user(options["user"], create=False)
        project = project_named(user=user, name=options["project"])
        if project is None:
            raise CommandError(f"{user.username} has no project called '{options['project']}'")
        for note in project.notes.order_by("-updated_at", "-id"):
            tags = ",".join(note.tags) or "-"
            self.stdout.write(f"{note.pk}\t{note.updated_at:%Y-%m-%d %H:%M}\t{tags}\t{note.title}")
