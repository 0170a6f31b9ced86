from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from personas.corpus.builder import BuildError, draft_persona
from personas.corpus.sources import CorpusError, corpus_files_at
from personas.corpus.store import corpus_prepare
from personas.models import Deck
from personas.services.drafts import save_persona_draft


class Command(BaseCommand):
    help = (
        "Draft a persona from a corpus of its own writing (.txt, .md, .html, .pdf, a folder of them or a "
        ".zip) and print its contract JSON, in the seed format, to stdout or --out. Anchor excerpts and "
        "voice examples are verbatim quotes from the corpus. --save stores the persona and its corpus."
    )

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help="The persona's display name.")
        parser.add_argument("--corpus", required=True, type=Path, help="A file, a folder or a .zip.")
        parser.add_argument("--id", dest="persona_id", default=None, help="personaId (default: from the name).")
        parser.add_argument("--deck", default=None, help="With --save: add the persona to this deck (slug).")
        parser.add_argument("--out", type=Path, default=None, help="Write the contract JSON here, not stdout.")
        parser.add_argument("--save", action="store_true", help="Store the persona and its corpus.")
        parser.add_argument(
            "--batch",
            action="store_true",
            help="Draft through the Message Batches API at half price (Claude only; may take up to "
            "FAULTLINE_BATCH_MAX_WAIT_SECONDS).",
        )

    def handle(self, *args, name, corpus, persona_id, deck, out, save, batch=False, **options):
        if deck and not Deck.objects.filter(slug=deck).exists():
            raise CommandError(f"No deck '{deck}'.")
        if deck and not save:
            raise CommandError("--deck needs --save.")
        try:
            prepared = corpus_prepare(corpus_files_at(corpus))
            draft = draft_persona(name=name, corpus=prepared, persona_id=persona_id, batched=batch)
            persona = save_persona_draft(draft, deck=deck) if save else None
        except (CorpusError, BuildError) as exc:
            raise CommandError("nothing was built:\n" + "\n".join(exc.errors)) from exc
        if out is not None:
            try:
                out.write_text(draft.contract_json(), encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"{out}: cannot write the contract ({exc.strerror})") from exc
        else:
            self.stdout.write(draft.contract_json(), ending="")
        report = self.stderr if out is None else self.stdout
        report.write(
            f"{len(prepared.documents)} document(s), {prepared.chunk_count} chunk(s); "
            f"{len(draft.contract['anchorExcerpts'])} anchor excerpt(s), "
            f"{len(draft.contract['voice']['voiceExamples'])} voice example(s), all verbatim from the corpus."
        )
        for note in draft.notes:
            report.write(note)
        if out is not None:
            report.write(f"Wrote {out}")
        if persona is not None:
            report.write(f"Saved persona '{persona.persona_id}'" + (f" in deck '{deck}'" if deck else "") + ".")
