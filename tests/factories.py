"""factory_boy factories shared by every app's tests. One section per app, models in import order."""

import factory

from personas.models import AnchorExcerpt, Deck, Persona

# ── personas ──────────────────────────────────────────────────────────────────────────────────


class PersonaFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Persona
        django_get_or_create = ["persona_id", "owner"]  # ids are unique per owner

    persona_id = factory.Sequence(lambda n: f"persona-{n}")
    owner = None  # shared, like the seed
    name = factory.LazyAttribute(lambda persona: persona.persona_id.replace("-", " ").title())
    tagline = "Says what they think."
    version = "2026-11-22T00:00:00Z"
    personality = "A worldview in one line."
    bias = "Sees what confirms it."
    stakes = "Reputation."
    epistemology = "Trusts data they can check."
    time_horizon = "Decades."
    flip_conditions = "Ten years of contrary data."
    evidence_policy = factory.LazyFunction(
        lambda: {"acceptedSources": ["Primary data"], "rejectedSources": ["Hype"], "weighting": "Data first."}
    )
    speech_patterns = factory.LazyFunction(lambda: ["You speak in declarative statements."])
    vocabulary = factory.LazyFunction(lambda: ["ledger", "signal"])
    forbidden_phrases = factory.LazyFunction(lambda: ["That's a great point", "I understand your perspective"])
    voice_examples = factory.LazyFunction(
        lambda: [{"situation": "Someone disagrees.", "response": "Show me the data."}]
    )


class AnchorExcerptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AnchorExcerpt

    persona = factory.SubFactory(PersonaFactory)
    excerpt_id = factory.Sequence(lambda n: f"excerpt-{n}")
    content = "A line in the persona's own voice."
    source = "Faultline archetype sample"
    position = factory.Sequence(int)


class DeckFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Deck
        django_get_or_create = ["slug"]
        skip_postgeneration_save = True

    slug = factory.Sequence(lambda n: f"deck-{n}")
    name = factory.LazyAttribute(lambda deck: deck.slug.replace("-", " ").title())
    description = "Personas who argue about one topic area."
    topic_area = "Testing"

    @factory.post_generation
    def personas(self, create, extracted, **kwargs):
        if create and extracted:
            self.personas.set(extracted)
