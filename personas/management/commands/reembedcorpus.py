from django.core.management.base import BaseCommand

from gateways.embeddings import gateway as embeddings
from personas.corpus.store import corpus_reembed


class Command(BaseCommand):
    help = "Re-embed persona corpus chunks whose vector is missing or was made by another model than the current one."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Re-embed every chunk, current model or not")

    def handle(self, *args, **options):
        done, failed = corpus_reembed(everything=options["all"])
        self.stdout.write(
            f"Re-embedded {done} corpus chunk(s) with {embeddings.current_model()}"
            + (f"; {failed} failed" if failed else "")
        )
