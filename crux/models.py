from django.db import models
from pgvector.django import HalfVectorField

from gateways.embeddings.types import DIMENSIONS


class DisagreementCandidate(models.Model):
    """A contested claim between two personas: tracked across detection windows before any room
    opens (staged commitment: seeds/past-engines-and-crux-rooms.md §6, area 6), then through its
    lifecycle on the blackboard: active -> in crux room -> resolved, or abandoned."""

    class Status(models.TextChoices):
        ACTIVE = "active"
        IN_CRUX_ROOM = "in_crux_room", "In a crux room"
        RESOLVED = "resolved"
        ABANDONED = "abandoned"

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="candidates")
    # The pair in a fixed order (lower persona id first), so A-vs-B and B-vs-A are one pair.
    persona_a = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="+")
    persona_b = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="+")
    dispute = models.TextField(help_text="The disputed question, as the detector worded it.")
    seen_count = models.PositiveIntegerField(default=1)
    consecutive_windows = models.PositiveIntegerField(default=1)
    last_window = models.PositiveIntegerField()
    confidence = models.FloatField()
    source_message_ids = models.JSONField(default=list)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.ACTIVE)
    resolution = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The dispute's vector, made beside the debate with its messages (memory/services/in_debate.py)
    # and used once made: staging tells a dispute reported in other words by it (crux/staging.py).
    embedding = HalfVectorField(dimensions=DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=80, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return self.dispute[:80]


class CruxRoom(models.Model):
    class Status(models.TextChoices):
        LIVE = "live"
        DONE = "done"
        FAILED = "failed"

    class ExitReason(models.TextChoices):
        SURFACED = "surfaced", "The crux surfaced"
        CAP = "cap", "Turn cap reached"
        STOPPED = "stopped", "Debate stopped"

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="crux_rooms")
    candidate = models.OneToOneField(
        DisagreementCandidate, null=True, blank=True, on_delete=models.SET_NULL, related_name="room"
    )
    persona_a = models.ForeignKey("personas.Persona", on_delete=models.PROTECT, related_name="+")
    persona_b = models.ForeignKey("personas.Persona", on_delete=models.PROTECT, related_name="+")
    question = models.TextField()
    trigger_message_ids = models.JSONField(default=list)
    suit = models.CharField(max_length=2)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE)
    exit_reason = models.CharField(max_length=10, choices=ExitReason.choices, blank=True)
    failure_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return self.question[:80]


class CruxCard(models.Model):
    class DisagreementType(models.TextChoices):
        HORIZON = "horizon"
        EVIDENCE = "evidence"
        VALUES = "values"
        DEFINITION = "definition"
        CLAIM = "claim"
        PREMISE = "premise"

    room = models.OneToOneField(CruxRoom, on_delete=models.CASCADE, related_name="card")
    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="crux_cards")
    question = models.TextField()
    # {persona_id: {"name": ..., "position": "YES"|"NO"|"NUANCED", "reasoning": ..., "falsifier": ...}}
    positions = models.JSONField(default=dict)
    disagreement_type = models.CharField(max_length=20, choices=DisagreementType.choices)
    diagnosis = models.TextField()
    resolved = models.BooleanField(default=False)
    resolution = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return self.question[:80]


# Graph mode's argument map lives with its pure logic; Django finds the model through this module.
from crux.graph.models import DisputeGraphState  # noqa: E402, F401
