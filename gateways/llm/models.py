from django.conf import settings
from django.db import models


class ModelCall(models.Model):
    """One call to a model, whatever its outcome: the ledger behind costs, traces and debugging."""

    # A deleted debate leaves its calls behind, billed to its owner, so deleting a debate never
    # gives back spend under the quotas (debates.services.quotas).
    debate = models.ForeignKey(
        "debates.Debate", null=True, blank=True, on_delete=models.SET_NULL, related_name="model_calls"
    )
    owner_of_deleted_debate = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    role = models.CharField(max_length=20)
    provider = models.CharField(max_length=20)
    model = models.CharField(max_length=80)
    persona = models.CharField(max_length=80, blank=True)
    phase = models.CharField(max_length=40, blank=True)
    # The rest of the call's tag (gateways/llm/types.py CallTag.fields), ids only: whom a turn
    # answered, its round, aspect, room and turn, the turns a structured call read about, a second
    # draft's attempt; it ties a call to the messages and rounds it was for.
    tag = models.JSONField(default=dict, blank=True)
    streamed = models.BooleanField(default=False)
    input_tokens = models.PositiveIntegerField(default=0)
    output_tokens = models.PositiveIntegerField(default=0)
    cache_creation_tokens = models.PositiveIntegerField(default=0)
    cache_read_tokens = models.PositiveIntegerField(default=0)
    latency_ms = models.PositiveIntegerField(default=0)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["debate", "created_at"])]

    def __str__(self):
        return f"{self.role} {self.model} ({self.input_tokens}+{self.output_tokens} tok)"
