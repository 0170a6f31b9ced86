"""manage.py recall --project NAME "question": what a debate on that question would recall.
--repository NAME (with --project): what a debate on that repository of the project would recall,
its own insights first. --persona NAME: that persona's top memories, with the three terms of their score. A look only:
retrieval counts are not changed."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from memory.services.insights import insights_search, insights_text_search, query_embed, recall_floors
from memory.services.persona_memory import persona_memories_top
from personas.models import Persona
from projects.cli import cli_user
from projects.models import Project

OWN_SCOPE = {"repository": "(this repository) ", "assignment": "(this assignment) "}  # where an insight is from


class Command(BaseCommand):
    help = "Print the past insights (with similarity) and established facts a debate on QUESTION would recall."

    def add_arguments(self, parser):
        parser.add_argument("question")
        parser.add_argument("--project", help="Only this project's insights (default: all of the user's)")
        parser.add_argument(
            "--repository", help="With --project: a debate on this repository of it (its insights first)"
        )
        parser.add_argument("--persona", help="Instead: this persona's top memories (name or id)")
        parser.add_argument("--user", help="Whose memory (default: your login name)")

    def handle(self, *args, **options):
        owner = cli_user(options["user"], create=False)
        question = options["question"].strip()
        if not question:
            raise CommandError("give a question")
        project = None
        if options["project"]:
            project = Project.objects.filter(owner=owner, name__iexact=options["project"].strip()).first()
            if project is None:
                raise CommandError(f"{owner.username} has no project '{options['project']}'")
        repository = None
        if options["repository"]:
            if project is None:
                raise CommandError("--repository needs --project NAME")
            repository = project.repositories.filter(name__iexact=options["repository"].strip()).first()
            if repository is None:
                raise CommandError(f"project '{project.name}' has no repository '{options['repository']}'")
        query_vector, note = query_embed(question)
        if note:
            self.stderr.write(note)
        if options["persona"]:
            return self._persona(owner, options["persona"], query_vector)
        if query_vector is None:
            result = insights_text_search(
                owner=owner, project=project, query=question, note=note, repository=repository
            )
        else:
            result = insights_search(
                owner=owner, project=project, query=question, query_vector=query_vector, repository=repository
            )
        self.stdout.write(f"Insights (found by {result.method} search):")
        if result.floors is not None:
            self.stdout.write(
                f"  (vectors of {result.model}: insights from similarity {result.floors.insight:.2f}, "
                f"facts from {result.floors.fact:.2f})"
            )
        if not result.insights:
            self.stdout.write("  (none above the threshold)")
        for recalled in result.insights:
            insight = recalled.insight
            self.stdout.write(
                f"  {recalled.similarity:.3f}  [{insight.get_kind_display()}, confidence {insight.confidence:.2f}, "
                f"recalled {insight.times_retrieved}x] {OWN_SCOPE.get(recalled.scope, '')}{insight.text}"
            )
        self.stdout.write("Established facts:")
        if not result.established:
            self.stdout.write("  (none)")
        for recalled in result.established:
            self.stdout.write(
                f"  - {OWN_SCOPE.get(recalled.scope, '')}{recalled.insight.text} ({recalled.similarity:.3f})"
            )

    def _persona(self, owner, name: str, query_vector) -> None:
        name = name.strip()
        persona = Persona.objects.filter(Q(name__iexact=name) | Q(persona_id__iexact=name)).first()
        if persona is None:
            raise CommandError(f"no persona '{name}'")
        floor = recall_floors().insight if query_vector is not None else None
        picked = persona_memories_top(owner=owner, persona=persona, query_vector=query_vector, floor=floor)
        self.stdout.write(f"{persona.name}'s memories (score = 0.5·recency + 3·relevance + 2·importance):")
        if not picked:
            self.stdout.write("  (none)")
        for scored in picked:
            self.stdout.write(
                f"  {scored.score:.2f}  recency {scored.recency:.2f}  relevance {scored.relevance:.2f}  "
                f"importance {scored.importance:.2f}  {scored.candidate.text}"
            )
