"""Chunks and sentences are slices of the text: whatever the text, every chunk is exactly
``text[start:end]``, none is longer than the limit, and together they keep every word in order."""

from hypothesis import given, settings
from hypothesis import strategies as st

from personas.corpus.chunking import chunk_spans, paragraphs, sentences

words = st.sampled_from(["gold", "pays", "no", "yield.", "Why?", "Because!", "a", "long-winded", "“quoted.”", "x" * 50])
separators = st.sampled_from([" ", " ", " ", "\n", "\n\n", "\n \n\n", "\t"])
texts = st.lists(st.tuples(words, separators), max_size=300).map(lambda pairs: "".join(w + s for w, s in pairs))


@settings(max_examples=200, deadline=None)
@given(texts, st.integers(min_value=20, max_value=400))
def test_chunks_are_slices_within_the_limit_that_keep_every_word(text, limit):
    spans = chunk_spans(text, target=limit // 2, limit=limit)

    assert all(0 <= s.start < s.end <= len(text) for s in spans)
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:], strict=False))
    assert all(s.end - s.start <= limit for s in spans)
    assert all(s.of(text) == s.of(text).strip() for s in spans)
    assert "".join(text.split()) == "".join("".join(s.of(text).split()) for s in spans)


def test_small_paragraphs_are_joined_and_sentences_split_long_ones():
    text = "One. Two.\n\nThree.\n\n" + "A sentence that runs on. " * 10

    spans = chunk_spans(text, target=30, limit=60)

    assert spans[0].of(text) == "One. Two.\n\nThree."
    assert all(s.of(text).endswith("on.") for s in spans[1:])


def test_sentences_and_paragraphs_keep_offsets():
    text = "He said “stop.” Then he left! Did he?\n\nNew paragraph here"

    assert [s.of(text) for s in sentences(text)] == [
        "He said “stop.”",
        "Then he left!",
        "Did he?",
        "New paragraph here",
    ]
    assert [p.of(text) for p in paragraphs(text)] == ["He said “stop.” Then he left! Did he?", "New paragraph here"]
