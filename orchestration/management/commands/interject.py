"""Speak into a debate from the command line, as its owner does under the live chat: the run
(a worker's, or ``rundebate`` in another process) reads it from the database at its next turn."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from debates.models import Debate, Interjection
from debates.services.interjections import InterjectionDraft, interjection_post


class Command(BaseCommand):
    help = (
        "Post a question, evidence or a challenge into a running (or paused) debate; the persona it is "
        "addressed to (else the most concerned) answers it at the next turn."
    )

    def add_arguments(self, parser):
        parser.add_argument("debate_id", metavar="DEBATE_ID")
        parser.add_argument("text", help="What you say (at most 1000 characters; '@Name, ...' addresses it too)")
        parser.add_argument("--to", default="", metavar="NAME", help="The persona it is addressed to")
        parser.add_argument("--kind", choices=Interjection.Kind.values, default=Interjection.Kind.QUESTION)
        parser.add_argument("--link", default="", help="evidence: a web address it comes from")

    def handle(self, *args, **options):
        try:
            debate = Debate.objects.get(pk=options["debate_id"])
        except (Debate.DoesNotExist, ValidationError) as exc:
            raise CommandError(f"no debate with id {options['debate_id']}") from exc
        draft = InterjectionDraft(
            text=options["text"], kind=options["kind"], to_name=options["to"], link=options["link"]
        )
        try:
            interjection = interjection_post(debate=debate, draft=draft)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        to = f" to {interjection.to_persona.name}" if interjection.to_persona else ""
        self.stdout.write(f"Posted {interjection.kind}{to} into debate {debate.id} (event {interjection.seq}).")
