"""The crux atlas's own records: a vector per crux card (to group the cards of all an owner's
debates by meaning) and the predictions an owner keeps from the cards' falsifiers. A card's
debate's owner owns both; they go with the card."""

from django.db import models
from pgvector.django import HalfVectorField

from gateways.embeddings.types import DIMENSIONS


class CruxVector(models.Model):
    """A crux card's question, normalised (atlas.clustering.crux_text) and embedded. Made the first
    time an atlas shows the card, and again after the embedding model changes."""

    card = models.OneToOneField("crux.CruxCard", on_delete=models.CASCADE, related_name="atlas_vector")
    text = models.TextField()
    # Null when the embedding failed: the card then joins only near-identical wordings.
    embedding = HalfVectorField(dimensions=DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return self.text[:80]


class Prediction(models.Model):
    """A card's "what would change my mind", kept as a claim the world will settle: what would settle
    it, by when, and what happened (recorded by the owner). ``persona`` is the one whose mind it
    was to change; they are reminded of it through their memory (``reminder``)."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CAME_TRUE = "came_true", "Came true"
        DID_NOT = "did_not", "Did not come true"
        UNCLEAR = "unclear", "Unclear"

    class Source(models.TextChoices):
        FALSIFIER = "falsifier", "From the card's falsifier"
        BY_HAND = "by_hand", "Written by the owner"

    card = models.ForeignKey("crux.CruxCard", on_delete=models.CASCADE, related_name="predictions")
    persona = models.ForeignKey(
        "personas.Persona", null=True, blank=True, on_delete=models.SET_NULL, related_name="predictions"
    )
    claim = models.TextField()
    settled_by = models.TextField(help_text="What would settle it: the observation to look for.")
    check_by = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    outcome_note = models.TextField(blank=True)
    source = models.CharField(max_length=12, choices=Source.choices, default=Source.FALSIFIER)
    reminder = models.ForeignKey(
        "memory.PersonaMemory", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["card", "persona"], name="one_prediction_per_card_and_persona")]

    def __str__(self):
        return self.claim[:80]

    @property
    def decided(self) -> bool:
        return self.status != self.Status.OPEN
