from collections.abc import Iterable

from django.db.models import F, Prefetch, Q, QuerySet

from personas.models import AnchorExcerpt, CorpusUpload, Deck, Persona, PersonaBuild


def persona_list(*, persona_ids: Iterable[str] | None = None) -> QuerySet[Persona]:
    """Personas with their excerpts (in order) and decks, ready to render as contracts."""
    personas = Persona.objects.prefetch_related(
        Prefetch("anchor_excerpts", queryset=AnchorExcerpt.objects.order_by("position", "id")),
        "decks",
    ).order_by("persona_id")
    if persona_ids is not None:
        personas = personas.filter(persona_id__in=list(persona_ids))
    return personas


def deck_list() -> QuerySet[Deck]:
    return Deck.objects.prefetch_related("personas").order_by("slug")


# ── What one user may see and deal: the seed (no owner) and their own ─────────────────────────


def visible_to(user) -> Q:
    """Rows without an owner (the seed) and, for a signed-in user, their own."""
    if user is None or not user.is_authenticated:
        return Q(owner__isnull=True)
    return Q(owner__isnull=True) | Q(owner=user)


def persona_is_visible_to(*, persona: Persona, user) -> bool:
    return persona.owner_id is None or (user is not None and user.is_authenticated and persona.owner_id == user.pk)


def personas_visible_to(*, user) -> QuerySet[Persona]:
    return Persona.objects.filter(visible_to(user)).select_related("owner").order_by("name", "pk")


def personas_owned_by(*, user) -> QuerySet[Persona]:
    return Persona.objects.filter(owner=user).order_by("name", "pk")


def decks_visible_to(*, user) -> QuerySet[Deck]:
    """Decks, each with only the personas this user may see (a seed deck never shows a private one)."""
    return (
        Deck.objects.filter(visible_to(user))
        .prefetch_related(Prefetch("personas", queryset=personas_visible_to(user=user)))
        .order_by(F("owner_id").asc(nulls_first=True), "name", "pk")
    )


def deck_personas_for(*, deck: Deck, user) -> QuerySet[Persona]:
    return deck.personas.filter(visible_to(user)).order_by("name", "pk")


def persona_detail_for(*, user, pk: int) -> Persona | None:
    """One persona this user may see, with its excerpts and decks; None if it is not theirs to see."""
    return persona_list().filter(visible_to(user), pk=pk).first()


def persona_builds_open(*, user) -> QuerySet[PersonaBuild]:
    """The user's builds not saved yet (drafting, ready for review, or failed), newest first."""
    return (
        PersonaBuild.objects.filter(owner=user)
        .exclude(status=PersonaBuild.Status.SAVED)
        .defer("files", "corpus", "draft")
        .order_by("-created_at")
    )


def corpus_upload_latest(*, persona: Persona) -> CorpusUpload | None:
    """The persona's last corpus upload (storing, stored or failed), for its owner's page."""
    return CorpusUpload.objects.filter(persona=persona).defer("files", "corpus").order_by("-created_at").first()
