from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from personas.selectors import persona_list
from personas.services import persona_export


class Command(BaseCommand):
    help = (
        "Write persona contracts into a folder: <personaId>.json per persona, plus decks.json for the "
        "decks whose every member is exported."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help="Folder to write into (created if missing).")
        parser.add_argument(
            "--persona",
            action="append",
            dest="persona_ids",
            metavar="ID",
            help="Export only this personaId; repeat for more. Default: every persona.",
        )

    def handle(self, *args, directory, persona_ids, **options):
        personas = None
        if persona_ids:
            personas = list(persona_list(persona_ids=persona_ids))
            missing = sorted(set(persona_ids) - {persona.persona_id for persona in personas})
            if missing:
                raise CommandError(f"no such persona: {', '.join(missing)}")
        written = persona_export(personas=personas, directory=directory)
        self.stdout.write(f"Wrote {len(written)} files to {directory}")
