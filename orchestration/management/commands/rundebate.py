"""Run a debate in the foreground with the same orchestrator the workers use."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.db.models import Q

from debates.cli import ActivityLines
from debates.models import Debate
from debates.modes import DEFAULT_MODE, mode_spec, modes_available
from debates.services.artifacts import debate_artifact_save
from debates.services.lifecycle import (
    MAX_ROUNDS,
    DebateOptions,
    debate_can_resume,
    debate_continue,
    debate_create,
)
from debates.services.notes import debate_note_save
from debates.services.quotas import quota_check_start
from gateways.llm import gateway
from orchestration.modes.printing import print_debate
from orchestration.run import DebateBusy, debate_run
from personas.models import Deck, Persona
from personas.services import role_personas
from projects.cli import cli_user
from projects.models import Repository
from projects.services import project_get_or_create, repository_attach


class Command(BaseCommand):
    help = "Run a debate in the foreground and print its transcript and crux cards."

    def add_arguments(self, parser):
        parser.add_argument("--personas", help="Comma-separated persona names or ids (2-6)")
        parser.add_argument("--topic", help="What they debate (at most 500 characters)")
        parser.add_argument("--deck", help="Deck name or slug the personas come from")
        parser.add_argument(
            "--length",
            choices=Debate.Length.values,
            default=None,
            help="The setup page's length: " + "; ".join(f"{value}: {label}" for value, label in Debate.Length.choices),
        )
        parser.add_argument(
            "--max-turns", type=int, default=None, help="Dialogue turns (default: the --length's, else 12)"
        )
        parser.add_argument(
            "--mode",
            type=lambda value: value.replace("_", "-"),  # analyst_critic (the stored value) is accepted too
            choices=[spec.key.replace("_", "-") for spec in modes_available()],
            default=DEFAULT_MODE,
            help="; ".join(f"{spec.key.replace('_', '-')}: {spec.help}" for spec in modes_available()),
        )
        parser.add_argument(
            "--max-rounds",
            type=int,
            default=None,
            help="a mode whose budget is rounds ("
            + ", ".join(spec.key.replace("_", "-") for spec in modes_available() if spec.rounds_setting)
            + f"): rounds before the synthesis without consensus, 1-{MAX_ROUNDS} (default: its setting, "
            + ", ".join(spec.rounds_setting for spec in modes_available() if spec.rounds_setting)
            + ")",
        )
        parser.add_argument(
            "--auto-continue",
            action="store_true",
            help="analyst-critic: run every round without pausing, then the synthesis; the last line gives the "
            "final consensus score and status (consensus or max_rounds). Without it the debate pauses after "
            "each round, as on the web: the command prints the round's score and how to continue "
            "(--resume DEBATE_ID for one more round, --resume DEBATE_ID --auto-continue for the rest) and exits",
        )
        parser.add_argument(
            "--pause-after-round",
            action="store_true",
            help="pause at the end of each round, in any mode (analyst-critic: each round, as it does unless "
            "--auto-continue; collaborate: after the drafts; dialogue and graph: after each aspect of the "
            "aspect plan). The command prints how far it got and exits; continue from the site, with "
            "`manage.py debate continue DEBATE_ID` (a worker runs it) or with --resume DEBATE_ID (here)",
        )
        parser.add_argument(
            "--recall-all-insights",
            action="store_true",
            help="without --project, recall insights from all your earlier debates (as the setup page's "
            "checkbox); with a project the debate recalls that project's",
        )
        parser.add_argument(
            "--rerun-of",
            metavar="DEBATE_ID",
            help="this debate re-runs that one of yours, say with one persona swapped (as the setup page's "
            "'Re-run with a swap'); the crux atlas links the two",
        )
        parser.add_argument("--trace", help="Write one JSON line per model call (full prompt, tokens) to this file")
        parser.add_argument(
            "--resume",
            metavar="DEBATE_ID",
            help="Resume a debate whose worker died, or continue a paused one, from its last event",
        )
        parser.add_argument("--project", help="Debate with this project as context (created if it does not exist)")
        target = parser.add_mutually_exclusive_group()
        target.add_argument("--assignment", help="...or with this assignment of the project as context")
        target.add_argument("--repository", metavar="PATH", help="...or with this local git repository as context")
        parser.add_argument(
            "--save-note", action="store_true", help="Save the results to the project as a note and print its id"
        )
        parser.add_argument(
            "--save-document",
            action="store_true",
            help="a mode that writes an artifact (collaborate): save it to the project as a Markdown document "
            "and print its id",
        )
        parser.add_argument(
            "--user",
            help="Who the debate is for: its owner, whose memory, quotas and projects apply (default: your login "
            "name; created if it does not exist)",
        )

    def handle(self, *args, **options):
        options["mode"] = options["mode"].replace("-", "_")
        with ExitStack() as stack:
            if options["trace"]:
                try:
                    trace = stack.enter_context(open(options["trace"], "w", encoding="utf-8"))
                except OSError as exc:
                    raise CommandError(f"cannot write the trace file: {exc}") from exc
                stack.enter_context(
                    gateway.trace_calls(
                        lambda record: (trace.write(gateway.call_record_json(record) + "\n"), trace.flush())
                    )
                )
            debate = (
                self._resumed(options["resume"], auto_continue=options["auto_continue"])
                if options["resume"]
                else self._created(options)
            )
            self.stderr.write(f"Debate {debate.id}: {debate.topic}")
            if debate.context_label:
                self.stderr.write(f"Context: {debate.context_label}")
            try:
                with ActivityLines(debate.id, write=self.stderr.write):  # what it is doing, on stderr
                    debate = debate_run(debate_id=debate.id)
            except DebateBusy as exc:
                raise CommandError(str(exc)) from exc
        self._print(debate)
        if debate.status == Debate.Status.PAUSED:
            self.stderr.write(
                f"Debate {debate.id} is paused: continue it on the site, with `manage.py debate continue {debate.id}` "
                f"(a worker runs it) or with `manage.py rundebate --resume {debate.id}` (here)"
            )
        if debate.status == Debate.Status.FAILED:
            raise CommandError(f"the debate failed: {debate.failure_reason}")
        if options["save_note"]:
            self._save_note(debate)
        if options["save_document"]:
            self._save_document(debate)

    def _context(self, options):
        """(owner, context target) from --user and --project/--assignment/--repository; the owner is
        --user's account (default: the login name) with or without a project, as on the site, so its
        memory and quotas apply."""
        if not options["project"]:
            if options["assignment"] or options["repository"] or options["save_note"]:
                raise CommandError("--assignment, --repository and --save-note need --project NAME")
            if options["save_document"]:
                raise CommandError("--save-document needs --project NAME (the project the artifact is saved to)")
            return cli_user(options["user"], create=True), None
        owner = cli_user(options["user"], create=True)
        try:
            project, created = project_get_or_create(owner=owner, name=options["project"])
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        if created:
            # Said once the debate exists: a refused command creates no project (see _created).
            transaction.on_commit(lambda: self.stderr.write(f"Created project '{project.name}' for {owner.username}"))
        if options["assignment"]:
            assignment = project.assignments.filter(name__iexact=options["assignment"].strip()).first()
            if assignment is None:
                known = ", ".join(project.assignments.values_list("name", flat=True)) or "none"
                raise CommandError(
                    f"project '{project.name}' has no assignment '{options['assignment']}'. Known: {known}"
                )
            return owner, assignment
        if options["repository"]:
            return owner, self._repository(project, options["repository"])
        return owner, project

    def _repository(self, project, path: str):
        try:
            folder = str(Path(path).expanduser().resolve())
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc}") from exc
        existing = project.repositories.filter(path=folder).first()
        if existing:
            return existing
        try:
            return repository_attach(project=project, source=Repository.Source.LOCAL, path=folder, any_path=True)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc

    def _save_note(self, debate: Debate) -> None:
        project = debate.context_project
        if project is None:
            raise CommandError("the debate has no project to save its note to")
        try:
            note = debate_note_save(debate=debate, project=project)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        self.stdout.write(f"Note {note.pk} saved to project '{project.name}'")

    def _save_document(self, debate: Debate) -> None:
        project = debate.context_project
        if project is None:
            raise CommandError("the debate has no project to save its artifact to")
        try:
            document = debate_artifact_save(debate=debate, project=project)
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc
        self.stdout.write(f"Document {document.pk} saved to project '{project.name}'")

    def _created(self, options) -> Debate:
        spec = mode_spec(options["mode"])
        if options["save_document"] and not spec.artifact:
            writers = " or ".join(s.key.replace("_", "-") for s in modes_available() if s.artifact)
            raise CommandError(f"--save-document saves a collaboration's artifact: use it with --mode {writers}")
        if spec.seats and not options["personas"]:  # a fixed-seat mode's plain role personas
            options["personas"] = ",".join(role_personas(spec.seats))
        if not options["personas"] or not options["topic"]:
            raise CommandError('give --personas A,B[,C...] and --topic "..." (or --resume DEBATE_ID)')
        deck = None
        candidates = Persona.objects.all()
        if options["deck"]:
            deck = Deck.objects.filter(Q(slug__iexact=options["deck"]) | Q(name__iexact=options["deck"])).first()
            if deck is None:
                known = ", ".join(Deck.objects.values_list("name", flat=True)) or "none"
                raise CommandError(f"unknown deck '{options['deck']}'. Known decks: {known}")
            candidates = deck.personas.all()
        personas = []
        for wanted in [name.strip() for name in options["personas"].split(",") if name.strip()]:
            persona = candidates.filter(
                Q(name__iexact=wanted) | Q(name__iexact=f"The {wanted}") | Q(persona_id__iexact=wanted)
            ).first()
            if persona is None:
                known = ", ".join(candidates.order_by("name").values_list("name", flat=True)) or "none"
                raise CommandError(f"unknown persona '{wanted}'. Known personas: {known}")
            personas.append(persona)
        try:
            # The project --project creates goes with the debate: a refused debate leaves none behind.
            with transaction.atomic():
                owner, context = self._context(options)
                quota_check_start(user=owner)  # the site's limits, for the same owner
                rerun_of = self._rerun_of(options["rerun_of"], owner=owner)
                return debate_create(
                    owner=owner,
                    context=context,
                    topic=options["topic"],
                    personas=personas,
                    deck=deck,
                    max_turns=None if spec.rounds_setting else self._turns(options),
                    mode=options["mode"],
                    options=DebateOptions(
                        length=options["length"] or Debate.Length.SHORT,
                        auto_continue=options["auto_continue"],
                        pause_after_round=options["pause_after_round"],
                        rounds=options["max_rounds"],
                        recall_all_insights=options["recall_all_insights"],
                        rerun_of=rerun_of,
                    ),
                )
        except ValidationError as exc:
            raise CommandError("; ".join(exc.messages)) from exc

    @staticmethod
    def _rerun_of(debate_id: str | None, *, owner) -> Debate | None:
        """The owner's own debate this one re-runs; any other id is one line, as --resume's."""
        if not debate_id:
            return None
        try:
            return Debate.objects.get(pk=debate_id, owner=owner)
        except (Debate.DoesNotExist, ValidationError) as exc:
            raise CommandError(f"no debate with id {debate_id} (for user {owner})") from exc

    @staticmethod
    def _turns(options) -> int | None:
        """--max-turns, else the --length's budget (debate_create), else a short debate's 12."""
        if options["max_turns"]:
            return options["max_turns"]
        return None if options["length"] else 12

    def _resumed(self, debate_id: str, *, auto_continue: bool = False) -> Debate:
        try:
            debate = Debate.objects.get(pk=debate_id)
        except (Debate.DoesNotExist, ValidationError) as exc:
            raise CommandError(f"no debate with id {debate_id}") from exc
        if debate.status == Debate.Status.PAUSED:
            try:
                debate_continue(debate=debate, auto_continue=True if auto_continue else None, enqueue=False)
            except ValidationError as exc:
                raise CommandError("; ".join(exc.messages)) from exc
            return debate
        if not debate_can_resume(debate=debate):
            raise CommandError(f"debate {debate_id} is {debate.status} and no worker has lost it: nothing to resume")
        return debate

    def _print(self, debate: Debate) -> None:
        print_debate(debate, self.stdout.write)
