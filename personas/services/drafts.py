"""Saving a drafted persona (personas.corpus.builder drafts it): the contract goes through the same
import as any uploaded contract, and the corpus is embedded and stored with it.

    draft = draft_persona(name="Ada Example", corpus=corpus)   # personas.corpus.builder
    persona = save_persona_draft(draft)   # after review and editing; stores the corpus too
"""

from __future__ import annotations

from django.db import transaction

from gateways.llm.types import CallTag
from personas.corpus.builder import BuildError, PersonaDraft, contract_problems
from personas.corpus.store import corpus_embed, corpus_store
from personas.models import Deck, Persona
from personas.selectors import visible_to
from personas.services import PersonaImportError, persona_import_upload
from personas.services.contract_import import persona_import_owned


def save_persona_draft(draft: PersonaDraft, *, owner=None, deck=None):
    """Store the (reviewed, maybe edited) draft as a persona with its corpus, in one transaction.

    The contract goes through the same validation as any import (personas.services); anchor
    excerpts and voice-example responses must still be verbatim corpus quotes (BuildError names
    any that are not). ``deck`` (a Deck or its slug) gets the persona as a member. ``owner``
    needs the ``Persona.owner`` field of the persona pages. A personaId already taken is refused.
    """
    problems = contract_problems(draft.contract)
    if problems:
        raise BuildError(problems)
    if unverified := draft.unverified_quotes():
        raise BuildError(
            [f"Not found word for word in the corpus: {quote[:80]!r}" for quote in unverified]
            + ["Anchor excerpts and voice examples must be quotes from the corpus."]
        )
    persona_id = draft.contract["personaId"]
    # Taken where the persona will live: among the seed's ids and, for a user, their own.
    if Persona.objects.filter(visible_to(owner), persona_id=persona_id).exists():
        raise BuildError(f"personaId: '{persona_id}' is already taken; choose another name or id.")
    if isinstance(deck, str):
        slug = deck
        deck = Deck.objects.filter(slug=slug).first()
        if deck is None:
            raise BuildError(f"No deck '{slug}'.")
    corpus_embed(draft.corpus, tag=CallTag(persona=persona_id))  # before the transaction: a model call
    with transaction.atomic():
        content = draft.contract_json().encode()
        try:
            if owner is None:
                persona_import_upload(filename=f"{persona_id}.json", content=content)
                persona = Persona.objects.get(persona_id=persona_id, owner=None)
            else:
                persona, _ = persona_import_owned(owner=owner, filename=f"{persona_id}.json", content=content)
        except PersonaImportError as exc:
            raise BuildError(exc.errors) from exc
        corpus_store(persona=persona, corpus=draft.corpus)
        if deck is not None:
            deck.personas.add(persona)
    return persona
