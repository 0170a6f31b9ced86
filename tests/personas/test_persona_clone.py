import pytest

from personas.models import Persona

pytestmark = pytest.mark.django_db


def test_clone_makes_a_private_copy_with_voice_and_excerpts(alice, user, seed_persona):
    response = alice.post(f"/personas/{seed_persona.pk}/clone/")

    copy = Persona.objects.get(owner=user)
    assert response.status_code == 302 and response["Location"] == f"/personas/{copy.pk}/edit/"
    assert copy.name == "The Macro Bear (copy)"
    assert copy.persona_id.startswith("the-macro-bear-") and copy.persona_id != seed_persona.persona_id
    assert copy.personality == seed_persona.personality and copy.voice_examples == seed_persona.voice_examples
    assert list(copy.anchor_excerpts.values_list("excerpt_id", "content")) == [
        ("bear-01", "Every cycle ends in credit.")
    ]
    seed_persona.refresh_from_db()
    assert seed_persona.owner is None and seed_persona.name == "The Macro Bear"


def test_clone_needs_a_post(alice, seed_persona):
    assert alice.get(f"/personas/{seed_persona.pk}/clone/").status_code == 405


def test_clone_copies_the_corpus(alice, user, seed_persona):
    from personas.corpus.models import CorpusChunk, CorpusDocument
    from personas.corpus.sources import corpus_files_from_uploads
    from personas.corpus.store import corpus_prepare, corpus_store

    corpus = corpus_prepare(
        corpus_files_from_uploads([("gold.txt", b"Gold pays no yield.\n\nInflation is a tax nobody voted for.")]),
        embed=False,
    )
    corpus_store(persona=seed_persona, corpus=corpus)

    alice.post(f"/personas/{seed_persona.pk}/clone/")

    copy = Persona.objects.get(owner=user)
    assert list(CorpusDocument.objects.filter(persona=copy).values_list("source", flat=True)) == ["gold.txt"]
    copied = list(CorpusChunk.objects.filter(persona=copy).order_by("ordinal").values_list("text", "document__persona"))
    original = list(CorpusChunk.objects.filter(persona=seed_persona).order_by("ordinal").values_list("text", flat=True))
    assert [text for text, _ in copied] == original and {owner for _, owner in copied} == {copy.pk}
    assert CorpusDocument.objects.filter(persona=seed_persona).count() == 1
