from collections.abc import Iterable

from django.db.models import Prefetch, QuerySet

from personas.models import AnchorExcerpt, Deck, Persona


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
