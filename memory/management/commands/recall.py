"""manage.py recall --project NAME "question": what a debate on that question would recall."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from memory.services.insights import insights_search
from projects.cli import cli_user
from projects.models import Project


class Command(BaseCommand):
    help = "Print the past insights (with similarity) and established facts a debate on QUESTION would recall."

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--project", help="Only this project's memory (default: all of the user's)")
        parser.add_argument("--user", help="Whose memory (default: your login name)")

    def handle(self, *args, **options):
        owner = cli_user(options["user"], create=False)
        project = None
        if options["project"]:
            project = Project.objects.filter(owner=owner, name__iexact=options["project"].strip()).first()
            if project is None:
                raise CommandError(f"{owner.username} has no project '{options['project']}'")
        result = insights_search(owner=owner, project=project, query=options["question"])
        if result.note:
            self.stderr.write(result.note)
        self.stdout.write(f"Insights (found by {result.method} search):")
        if not result.insights:
            self.stdout.write("  (none above the threshold)")
        for recalled in result.insights:
            score = "text" if recalled.similarity is None else f"{recalled.similarity:.3f}"
            insight = recalled.insight
            self.stdout.write(
                f"  {score}  [{insight.get_kind_display()}, confidence {insight.confidence:.2f}] {insight.text}"
            )
        self.stdout.write("Established facts:")
        if not result.established:
            self.stdout.write("  (none)")
        for recalled in result.established:
            self.stdout.write(f"  - {recalled.insight.text}")
