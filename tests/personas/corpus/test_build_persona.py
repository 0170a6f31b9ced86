"""Building a persona from its corpus: the model drafts the contract, but every quote in it (anchor
excerpts, voice examples) is a verbatim passage of the corpus, whatever the model made up."""

import pytest

from devtools.fake_messages_api import Reply
from personas.contracts import PersonaContract
from personas.corpus.builder import BuildError, PersonaDraft, draft_persona
from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.corpus.sources import corpus_files_at
from personas.corpus.store import corpus_prepare
from personas.models import Deck, Persona
from personas.services import persona_contract_dict
from personas.services.drafts import save_persona_draft
from tests.support.persona_builder import MADE_UP_QUOTES, MADE_UP_VOICE

pytestmark = pytest.mark.django_db


def _corpus_text(corpus) -> str:
    return "\n\x00\n".join(document.text for document in corpus.documents)


def test_every_anchor_excerpt_and_voice_example_is_verbatim_from_the_corpus(builder_api, corpus_dir):
    corpus = corpus_prepare(corpus_files_at(corpus_dir))

    draft = draft_persona(name="Ada Essayist", corpus=corpus)

    contract = PersonaContract.model_validate(draft.contract)
    quotes = [e.content for e in contract.anchor_excerpts] + [v.response for v in contract.voice.voice_examples]
    assert len(contract.anchor_excerpts) >= 4 and len(contract.voice.voice_examples) >= 2
    for quote in quotes:
        assert any(quote in document.text for document in corpus.documents), quote
    for made_up in [*MADE_UP_QUOTES, MADE_UP_VOICE]:
        assert made_up not in _corpus_text(corpus)
        assert made_up not in quotes
        assert made_up in draft.dropped_quotes
    assert any("Dropped 3 quote(s)" in note for note in draft.notes)
    assert {e.source for e in contract.anchor_excerpts} <= {
        "inflation.md",
        "trust.txt",
        "notes/gold.md",
        "letters/to-a-young-saver.txt",
    }
    assert contract.persona_id == "ada-essayist" and contract.personality.startswith("A sceptical essayist")


def test_a_quote_the_model_copied_exactly_is_kept(builder_api, builder_script, corpus_dir):
    corpus = corpus_prepare(corpus_files_at(corpus_dir))

    draft = draft_persona(name="Ada Essayist", corpus=corpus)

    copied = builder_script.proposal(builder_api.requests[0])["anchor_quotes"][-1]
    assert copied in _corpus_text(corpus)
    assert draft.contract["anchorExcerpts"][0]["content"] == copied


def test_a_model_whose_output_never_fits_the_schema_gives_a_clear_error(builder_api, corpus_dir):
    builder_api.script(Reply.says('{"tagline": "half'), Reply.says('{"still": "wrong"}'))
    corpus = corpus_prepare(corpus_files_at(corpus_dir))

    with pytest.raises(BuildError, match="The model could not draft Ada Essayist: DraftProposal"):
        draft_persona(name="Ada Essayist", corpus=corpus)

    assert len(builder_api.requests) == 2  # the call and its one repair


def test_a_saved_draft_stores_the_persona_its_corpus_and_its_deck(builder_api, corpus_dir):
    deck = Deck.objects.create(slug="mine", name="Mine")
    draft = draft_persona(name="Ada Essayist", corpus=corpus_prepare(corpus_files_at(corpus_dir)))
    draft.contract["personality"] = "Edited by the reviewer."

    persona = save_persona_draft(draft, deck="mine")

    assert persona.personality == "Edited by the reviewer."
    assert list(deck.personas.all()) == [persona]
    exported = persona_contract_dict(persona)
    assert [e["content"] for e in exported["anchorExcerpts"]] == [
        e["content"] for e in draft.contract["anchorExcerpts"]
    ]
    assert CorpusDocument.objects.filter(persona=persona).count() == 4
    assert not CorpusChunk.objects.filter(persona=persona, embedding__isnull=True).exists()


def test_a_draft_kept_between_requests_saves_the_same(builder_api, corpus_dir):
    draft = draft_persona(name="Ada Essayist", corpus=corpus_prepare(corpus_files_at(corpus_dir)))

    persona = save_persona_draft(PersonaDraft.from_dict(draft.to_dict()))

    assert CorpusChunk.objects.filter(persona=persona, embedding__isnull=False).count() == draft.corpus.chunk_count


def test_an_edited_quote_that_is_not_in_the_corpus_is_refused_and_nothing_is_saved(builder_api, corpus_dir):
    draft = draft_persona(name="Ada Essayist", corpus=corpus_prepare(corpus_files_at(corpus_dir)))
    draft.contract["anchorExcerpts"][0]["content"] = "Words the author never wrote."

    with pytest.raises(BuildError, match="Not found word for word in the corpus: 'Words the author never wrote.'"):
        save_persona_draft(draft)

    assert not Persona.objects.exists() and not CorpusDocument.objects.exists()


def test_a_persona_id_already_taken_is_refused(builder_api, corpus_dir, persona):
    draft = draft_persona(name="Ada Essayist", corpus=corpus_prepare(corpus_files_at(corpus_dir)))

    with pytest.raises(BuildError, match="'ada-essayist' is already taken"):
        save_persona_draft(draft)


def test_a_name_without_ascii_letters_still_gets_a_valid_persona_id(builder_api, corpus_dir):
    draft = draft_persona(name="Σωκράτης", corpus=corpus_prepare(corpus_files_at(corpus_dir)))

    contract = PersonaContract.model_validate(draft.contract)
    assert contract.persona_id.startswith("persona-") and contract.name == "Σωκράτης"


def test_a_corpus_drafted_before_it_is_embedded_quotes_verbatim_and_embeds_on_save(builder_api, corpus_dir):
    corpus = corpus_prepare(corpus_files_at(corpus_dir), embed=False)  # fast enough for a request

    draft = draft_persona(name="Ada Essayist", corpus=corpus)

    assert draft.contract["anchorExcerpts"] and not draft.unverified_quotes()
    assert "Quotes were chosen by word overlap (the corpus has no embeddings)." in draft.notes
    persona = save_persona_draft(draft)
    assert not CorpusChunk.objects.filter(persona=persona, embedding__isnull=True).exists()
