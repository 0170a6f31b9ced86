"""A persona's corpus: the writing it was built from, in chunks it can quote in debates.

A ``CorpusDocument`` is one file of the upload (a folder or a zip gives one per file inside); its
``CorpusChunk`` rows cut its text on paragraph and sentence boundaries, each keeping its character
offsets into the document's text, so ``document.text[chunk.start:chunk.end] == chunk.text``.
Each vector records the model that made it (like memory/models.py): retrieval compares only
vectors of the current model and falls back to full-text search for the rest.
"""

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import models
from pgvector.django import HnswIndex, VectorField

from gateways.embeddings.types import DIMENSIONS


class CorpusDocument(models.Model):
    class Kind(models.TextChoices):
        TXT = "txt", "Plain text"
        MD = "md", "Markdown"
        HTML = "html", "HTML"
        PDF = "pdf", "PDF"

    persona = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="corpus_documents")
    # The file's path inside the upload ("essays/2019/money.md", "posts.zip/a.txt"): what citations name.
    source = models.CharField(max_length=300)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    sha256 = models.CharField(max_length=64)  # of the uploaded bytes
    # The readable text the chunks' offsets point into (after HTML/PDF extraction and tidying).
    text = models.TextField()
    char_count = models.PositiveIntegerField()
    position = models.PositiveIntegerField(default=0)  # order within the upload
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "personas"
        ordering = ["persona", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["persona", "source"], name="corpus_document_source_once"),
        ]

    def __str__(self):
        return self.source


class CorpusChunk(models.Model):
    document = models.ForeignKey(CorpusDocument, on_delete=models.CASCADE, related_name="chunks")
    # Denormalised from the document: retrieval scans one persona's chunks without a join.
    persona = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="corpus_chunks")
    ordinal = models.PositiveIntegerField()  # position within the document
    start = models.PositiveIntegerField()  # character offsets into document.text
    end = models.PositiveIntegerField()
    text = models.TextField()
    # Null when the embedding failed: the chunk is still found by full-text search.
    embedding = VectorField(dimensions=DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=80, blank=True)

    class Meta:
        app_label = "personas"
        ordering = ["document", "ordinal"]
        indexes = [
            HnswIndex(
                name="corpus_chunk_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
            models.Index(fields=["persona", "embedding_model"], name="corpus_chunk_scope"),
            GinIndex(SearchVector("text", config="english"), name="corpus_chunk_text_search"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["document", "ordinal"], name="corpus_chunk_ordinal_once"),
        ]

    def __str__(self):
        return f"{self.document.source} #{self.ordinal}: {self.text[:60]}"
