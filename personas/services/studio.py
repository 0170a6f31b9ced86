"""What a user does with personas in the browser: clone a seed persona into their own, save an
edit, delete one, and build decks of their own. Every function takes the acting user and refuses
(PermissionDenied) to change anything that is not theirs; the views have already 404'd on what
the user cannot see, so this is the second lock, not the first."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone
from django.utils.text import slugify

from personas.corpus.models import CorpusChunk, CorpusDocument
from personas.models import AnchorExcerpt, Deck, Persona
from personas.selectors import persona_is_visible_to, visible_to

SLUG_MAX = 80


def unique_slug(model, *, field: str, base: str, among: Q | None = None) -> str:
    """``base`` trimmed, with a short random suffix (a counter would tell one user how many others
    have made), free among the rows ``among`` picks (all of them by default)."""
    stem = (slugify(base) or "persona")[: SLUG_MAX - 7].strip("-") or "persona"
    rows = model.objects.filter(among) if among is not None else model.objects.all()
    while True:
        candidate = f"{stem}-{secrets.token_hex(3)}"
        if not rows.filter(**{field: candidate}).exists():
            return candidate


def contract_version_now() -> str:
    """A contract's version is the ISO timestamp of its build, as in the seed."""
    return timezone.now().strftime("%Y-%m-%dT%H:%M:%SZ")


def check_owner(thing, user) -> None:
    if thing.owner_id is None or thing.owner_id != user.pk:
        raise PermissionDenied("Only its owner can change this.")


# ── personas ──────────────────────────────────────────────────────────────────────────────────


def persona_clone(*, persona: Persona, owner) -> Persona:
    """A private copy of a persona the owner can see (a seed persona, or one of their own), with
    its voice, anchor excerpts and corpus, named "<name> (copy)" until they rename it."""
    if not persona_is_visible_to(persona=persona, user=owner):
        raise PermissionDenied("That persona is not yours to copy.")
    excerpts = list(persona.anchor_excerpts.order_by("position", "id"))
    with transaction.atomic():
        copy = Persona.objects.get(pk=persona.pk)
        copy.pk = None
        copy.persona_id = unique_slug(Persona, field="persona_id", base=persona.persona_id, among=visible_to(owner))
        copy.owner = owner
        copy.name = f"{persona.name} (copy)"[:120]
        copy.version = contract_version_now()
        copy.save()
        AnchorExcerpt.objects.bulk_create(
            AnchorExcerpt(
                persona=copy,
                excerpt_id=excerpt.excerpt_id,
                content=excerpt.content,
                source=excerpt.source,
                date=excerpt.date,
                position=excerpt.position,
            )
            for excerpt in excerpts
        )
        _corpus_copy(source=persona, target=copy)
    return copy


def _corpus_copy(*, source: Persona, target: Persona) -> None:
    """The clone quotes the same writing: documents and chunks copied, vectors included."""
    for document in CorpusDocument.objects.filter(persona=source).order_by("position", "id"):
        chunks = list(document.chunks.order_by("ordinal"))
        document.pk, document.persona = None, target
        document.save()
        for chunk in chunks:
            chunk.pk, chunk.document, chunk.persona = None, document, target
        CorpusChunk.objects.bulk_create(chunks, batch_size=500)


def persona_save(*, persona: Persona, user, fields: Iterable[str]) -> Persona:
    """Save an edit the owner made (the form has validated it by the contract's rules)."""
    check_owner(persona, user)
    persona.version = contract_version_now()
    persona.save(update_fields=[*fields, "version", "updated_at"])
    return persona


def persona_delete(*, persona: Persona, user) -> None:
    check_owner(persona, user)
    try:
        persona.delete()
    except ProtectedError as exc:
        raise ValidationError(
            "This persona has spoken in debates; delete those debates first (their record needs it)."
        ) from exc


# ── decks ─────────────────────────────────────────────────────────────────────────────────────


def _check_members(personas: Iterable[Persona], user) -> list[Persona]:
    members = list(personas)
    if not all(persona_is_visible_to(persona=persona, user=user) for persona in members):
        raise PermissionDenied("A deck can hold only seed personas and your own.")
    return members


def deck_create(*, owner, name: str, description: str = "", topic_area: str = "", personas=()) -> Deck:
    members = _check_members(personas, owner)
    with transaction.atomic():
        deck = Deck.objects.create(
            owner=owner,
            slug=unique_slug(Deck, field="slug", base=name),
            name=name,
            description=description,
            topic_area=topic_area,
        )
        deck.personas.set(members)
    return deck


def deck_save(*, deck: Deck, user, personas) -> Deck:
    """Save the owner's edit of their deck: its fields and exactly these members."""
    check_owner(deck, user)
    members = _check_members(personas, user)
    with transaction.atomic():
        deck.save()
        deck.personas.set(members)
    return deck


def deck_add_persona(*, deck: Deck, persona: Persona, user) -> None:
    check_owner(deck, user)
    deck.personas.add(*_check_members([persona], user))


def deck_remove_persona(*, deck: Deck, persona: Persona, user) -> None:
    check_owner(deck, user)
    deck.personas.remove(persona)


def deck_delete(*, deck: Deck, user) -> None:
    """The deck only: its personas stay, and past debates keep their record (deck set to null)."""
    check_owner(deck, user)
    deck.delete()
