from django.core.management.base import BaseCommand, CommandError

from personas.services import SEED_DIR, PersonaImportError, persona_seed_load


class Command(BaseCommand):
    help = (
        f"Import the shipped seed personas and decks ({SEED_DIR}) if there are no personas yet. "
        "Safe to run on every start."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Import the seed even if personas exist (updates the seed personas and decks).",
        )

    def handle(self, *args, force, verbosity, **options):
        try:
            result = persona_seed_load(force=force)
        except PersonaImportError as exc:
            raise CommandError("the shipped seed is invalid:\n" + "\n".join(exc.errors)) from exc
        if result is None:
            if verbosity >= 2:
                self.stdout.write("Personas already exist; seed not loaded (use --force to re-import).")
            return
        changed = len(result.created) + len(result.updated)
        decks = len(result.decks_created) + len(result.decks_updated)
        self.stdout.write(f"Seed loaded: {changed} personas and {decks} decks created or updated.")
        if verbosity >= 2:
            for line in result.summary_lines():
                self.stdout.write(line)
