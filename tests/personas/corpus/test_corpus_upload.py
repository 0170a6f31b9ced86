"""Uploading a persona's corpus: every readable file is kept as text, cut into chunks that point
back into it, and embedded; a bad file is refused by name and nothing is stored; re-uploading
replaces the corpus."""

import io
import zipfile

import pytest

from gateways.embeddings import gateway as embeddings
from gateways.embeddings.types import EmbeddingError
from personas.corpus import sources
from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.corpus.retrieval import corpus_passages_relevant
from personas.corpus.sources import CorpusError, corpus_files_at, corpus_files_from_uploads
from personas.corpus.store import replace_corpus
from tests.support.documents import pdf_with_text

pytestmark = pytest.mark.django_db


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_a_folder_is_read_chunked_and_embedded_keeping_sources_and_offsets(persona, corpus_dir, offline):
    summary = replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    documents = list(CorpusDocument.objects.filter(persona=persona))
    assert [d.source for d in documents] == [
        "inflation.md",
        "letters/to-a-young-saver.txt",
        "notes/gold.md",
        "trust.txt",
    ]
    assert (summary.documents, summary.embedded) == (4, summary.chunks)
    chunks = list(CorpusChunk.objects.filter(persona=persona).select_related("document"))
    assert len(chunks) == summary.chunks >= 3
    for chunk in chunks:
        assert chunk.document.text[chunk.start : chunk.end] == chunk.text
        assert chunk.embedding is not None and chunk.embedding_model == embeddings.current_model()
    assert documents[0].char_count == len(documents[0].text) and len(documents[0].sha256) == 64


def test_html_and_pdf_are_read_as_their_visible_text(persona, offline):
    html = b"<html><head><title>x</title><script>var a=1;</script></head><body><p>Savers pay &amp; pay.</p><p>Second paragraph here.</p></body></html>"
    files = corpus_files_from_uploads([("post.html", html), ("talk.pdf", pdf_with_text("Gold cannot default."))])

    replace_corpus(persona=persona, files=files)

    texts = dict(CorpusDocument.objects.values_list("source", "text"))
    assert texts["post.html"] == "Savers pay & pay.\n\nSecond paragraph here."
    assert "Gold cannot default." in texts["talk.pdf"]


def test_a_corrupt_pdf_is_refused_naming_the_file_and_nothing_is_stored(persona, corpus_dir, offline):
    replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))
    before = list(CorpusChunk.objects.values_list("id", flat=True))
    (corpus_dir / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage")

    with pytest.raises(CorpusError) as refused:
        replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    assert "broken.pdf" in str(refused.value)
    assert list(CorpusChunk.objects.values_list("id", flat=True)) == before
    assert not CorpusDocument.objects.filter(source="broken.pdf").exists()


def test_an_oversized_zip_is_refused_naming_the_file(persona, offline, monkeypatch):
    monkeypatch.setattr(sources, "MAX_TOTAL_BYTES", 1000)
    archive = _zip({"a.txt": b"word " * 150, "b.txt": b"more " * 150})

    with pytest.raises(CorpusError) as refused:
        replace_corpus(persona=persona, files=corpus_files_from_uploads([("essays.zip", archive)]))

    assert "essays.zip" in str(refused.value) and "1000" in str(refused.value)
    assert not CorpusDocument.objects.exists()


def test_a_zip_bomb_is_refused_before_it_is_unpacked(persona, offline):
    archive = _zip({"bomb.txt": b" " * (5 * 1024 * 1024)})
    assert len(archive) < 20_000

    with pytest.raises(CorpusError) as refused:
        corpus_files_from_uploads([("innocent.zip", archive)])

    assert "innocent.zip/bomb.txt" in str(refused.value) and "zip bomb" in str(refused.value)


def test_a_zip_member_larger_than_the_file_limit_is_refused(offline, monkeypatch):
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 100)

    with pytest.raises(CorpusError, match=r"posts.zip/long.md: too large"):
        corpus_files_from_uploads([("posts.zip", _zip({"long.md": b"x " * 200}))])


def test_a_zip_with_a_path_outside_the_archive_is_refused():
    with pytest.raises(CorpusError, match=r"evil.zip/../../etc/x.txt: a path outside the archive"):
        corpus_files_from_uploads([("evil.zip", _zip({"../../etc/x.txt": b"hello there"}))])


def test_a_file_of_an_unknown_kind_is_refused_by_name():
    with pytest.raises(CorpusError, match=r"slides.pptx: not a file Faultline can read"):
        corpus_files_from_uploads([("slides.pptx", b"PK...")])


def test_a_missing_path_is_refused(tmp_path):
    with pytest.raises(CorpusError, match="no such file or folder"):
        corpus_files_at(tmp_path / "nowhere")


def test_reuploading_replaces_the_corpus(persona, corpus_dir, offline):
    replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    summary = replace_corpus(
        persona=persona, files=corpus_files_from_uploads([("new.txt", b"Only this essay remains now.")])
    )

    assert summary.replaced_documents == 4
    assert list(CorpusDocument.objects.values_list("source", flat=True)) == ["new.txt"]
    assert list(CorpusChunk.objects.values_list("text", flat=True)) == ["Only this essay remains now."]


def test_an_embedding_failure_keeps_the_chunks_without_vectors_and_says_so(persona, corpus_dir, monkeypatch):
    def down(*args, **kwargs):
        raise EmbeddingError("provider down")

    monkeypatch.setattr(embeddings, "embed", down)

    summary = replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    assert summary.embedded == 0 and "Embedding failed (provider down)" in summary.note
    assert not CorpusChunk.objects.filter(embedding__isnull=False).exists()
    found = corpus_passages_relevant(persona=persona, query="Why does gold never default?", top_k=2)
    assert found.method == "text"
    assert any("Gold pays no yield" in passage.text for passage in found.passages)


def test_retrieval_finds_the_relevant_chunk_by_meaning(persona, corpus_dir, offline):
    replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    found = corpus_passages_relevant(persona=persona, query="Is gold a safe store of value?", top_k=1)

    assert found.method == "vector"
    assert [passage.tag for passage in found.passages] == ["C1"]
    assert found.passages[0].source == "notes/gold.md"


def test_a_broken_retrieval_gives_no_passages_and_never_raises(persona, corpus_dir, offline, monkeypatch):
    from personas.corpus import retrieval

    replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))
    monkeypatch.setattr(retrieval, "_search", lambda *args: 1 / 0)

    found = corpus_passages_relevant(persona=persona, query="gold")

    assert found.passages == [] and "ZeroDivisionError" in found.note


def test_a_stored_corpus_reads_back_for_another_draft(persona, corpus_dir, offline):
    from personas.corpus.selectors import corpus_document_list, corpus_of

    summary = replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))

    corpus = corpus_of(persona=persona)
    assert corpus.chunk_count == summary.chunks and corpus.embedding_model == embeddings.current_model()
    assert corpus.contains("Gold pays no yield, and that is its point.")
    listed = list(corpus_document_list(persona=persona))
    assert sum(d.chunk_count for d in listed) == summary.chunks == sum(d.embedded_count for d in listed)


def test_chunks_stored_without_vectors_are_embedded_again_by_reembedcorpus(persona, corpus_dir, monkeypatch):
    from django.core.management import call_command

    real_embed = embeddings.embed
    monkeypatch.setattr(embeddings, "embed", lambda *a, **k: (_ for _ in ()).throw(EmbeddingError("down")))
    summary = replace_corpus(persona=persona, files=corpus_files_at(corpus_dir))
    monkeypatch.setattr(embeddings, "embed", real_embed)
    out = io.StringIO()

    call_command("reembedcorpus", stdout=out)

    assert f"Re-embedded {summary.chunks} corpus chunk(s)" in out.getvalue()
    assert not CorpusChunk.objects.filter(embedding__isnull=True).exists()
    assert corpus_passages_relevant(persona=persona, query="gold", top_k=1).method == "vector"
