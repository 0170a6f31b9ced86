import uuid

from django.conf import settings
from django.db import models
from pgvector.django import HnswIndex, VectorField


class Debate(models.Model):
    class Mode(models.TextChoices):
        DIALOGUE = "dialogue", "Dialogue with crux rooms"
        GRAPH = "graph", "Argumentation graph"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a worker"
        RUNNING = "running", "Running"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"
        STOPPED = "stopped", "Stopped"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="debates"
    )
    topic = models.CharField(max_length=500)
    deck = models.ForeignKey("personas.Deck", null=True, blank=True, on_delete=models.SET_NULL)
    personas = models.ManyToManyField("personas.Persona", through="Participant", related_name="debates")
    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.DIALOGUE)
    max_turns = models.PositiveIntegerField(default=30)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    failure_reason = models.TextField(blank=True)
    provider = models.CharField(max_length=20, blank=True, help_text="Model provider that produced its text.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.topic[:80]


class Participant(models.Model):
    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="participants")
    persona = models.ForeignKey("personas.Persona", on_delete=models.PROTECT)
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["seat"]
        constraints = [
            models.UniqueConstraint(fields=["debate", "persona"], name="unique_persona_per_debate"),
            models.UniqueConstraint(fields=["debate", "seat"], name="unique_seat_per_debate"),
        ]


class DebateMemory(models.Model):
    """Long-term memory: something worth recalling in a later debate, with its embedding.

    See seeds/debate-memory-architecture.md, phase 5: position snapshots, reflections, crux cards
    and high-importance messages are embedded, then retrieved by recency, relevance and importance.
    """

    class Kind(models.TextChoices):
        MESSAGE = "message"
        POSITION = "position"
        REFLECTION = "reflection"
        CRUX_CARD = "crux_card"

    EMBEDDING_DIMENSIONS = 1024  # voyage-3 family

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="memories")
    persona = models.ForeignKey("personas.Persona", null=True, blank=True, on_delete=models.CASCADE)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    content = models.TextField()
    importance = models.PositiveSmallIntegerField(default=5)
    round = models.PositiveIntegerField(default=0)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [
            HnswIndex(
                name="memory_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            )
        ]
