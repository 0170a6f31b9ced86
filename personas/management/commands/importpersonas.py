from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from personas.services import PersonaImportError, persona_import


class Command(BaseCommand):
    help = (
        "Import persona contracts from one .json file or a folder of them (a decks.json in the folder "
        "imports decks too). Every file is validated first; if any is bad, nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="A contract .json file, or a folder of them.")

    def handle(self, *args, path, **options):
        try:
            result = persona_import(path=path)
        except PersonaImportError as exc:
            raise CommandError("nothing was imported:\n" + "\n".join(exc.errors)) from exc
        for line in result.summary_lines() or ["Nothing to import."]:
            self.stdout.write(line)
