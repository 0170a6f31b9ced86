"""The debate blackboard (seeds/debate-memory-architecture.md): what the orchestrator knows about
where everyone stands, persisted so a resumed debate and a replay know it too. Only the
orchestrator writes here; personas see it through the context assembler."""

from django.db import models


class PositionState(models.Model):
    """One persona's position ledger within one debate."""

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="positions")
    persona = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="+")
    overall_stance = models.TextField(blank=True)
    # Where the statement overall_stance comes from finished in the log (as topic_side_seq, below).
    overall_stance_seq = models.PositiveIntegerField(null=True, blank=True)
    # Their last recorded answer to the debate's question: YES | NO | NUANCED, "" if never recorded.
    # What the regime reads to tell a consensus from a disagreement nobody isolated (debates/regime.py).
    topic_side = models.CharField(max_length=8, blank=True, default="")
    # Where the statement topic_side comes from finished in the debate's log (its message_completed
    # event's seq): a statement said before it but folded after it (a crux room's window is folded
    # late) does not replace it. Null: not known (the side folded last stands, as in older debates).
    topic_side_seq = models.PositiveIntegerField(null=True, blank=True)
    # What a NUANCED topic_side hangs on, as the ledger keeper read it ("" when not said, or not
    # NUANCED): the verdict compares them (all NUANCED agrees only on one condition).
    topic_condition = models.CharField(max_length=240, blank=True, default="")
    # {"<aspect index>": {"position": str, "evidence": [str], "challenged": [str]}}
    aspect_positions = models.JSONField(default=dict)
    # [{"with": persona_id, "name": str, "on": str}]
    agreements = models.JSONField(default=list)
    # [{"with": persona_id, "name": str, "on": str, "intensity": "mild"|"strong"}]
    disagreements = models.JSONField(default=list)
    concessions = models.JSONField(default=list)
    shifts = models.JSONField(default=list)
    last_updated_round = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["debate", "persona"], name="one_position_state_per_persona")]

    def __str__(self):
        return f"{self.persona_id}: {self.overall_stance[:60]}"

    @property
    def unanswered_challenges(self) -> list[str]:
        return [c for aspect in self.aspect_positions.values() for c in aspect.get("challenged", [])]

    @property
    def evidence(self) -> list[str]:
        return [e for aspect in self.aspect_positions.values() for e in aspect.get("evidence", [])]


class RoundRecord(models.Model):
    """What each persona did in one aspect's round: position, key argument, evidence, who they engaged."""

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="round_records")
    aspect_index = models.PositiveSmallIntegerField()
    round_number = models.PositiveSmallIntegerField()
    # {"<persona_id>": {"name", "position", "key_argument", "evidence_cited": [..], "engaged": name|""}}
    takes = models.JSONField(default=dict)
    summary = models.TextField(blank=True)
    new_disagreements = models.JSONField(default=list)
    shifts = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_number"]
        constraints = [models.UniqueConstraint(fields=["debate", "round_number"], name="one_record_per_round")]


class Reflection(models.Model):
    class Kind(models.TextChoices):
        PATTERN = "pattern"
        SHIFT = "shift"
        CONVERGENCE = "convergence"
        ESCALATION = "escalation"

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="reflections")
    content = models.TextField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    about_persona_ids = models.JSONField(default=list)
    source_message_ids = models.JSONField(default=list)
    round_number = models.PositiveSmallIntegerField(default=0)
    importance = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-importance", "created_at"]


class BlackboardNotes(models.Model):
    """Debate-wide notes: the rolling summary, decisions reached, proposals and reactions, and the
    epistemic-event score that triggers the next reflection."""

    debate = models.OneToOneField("debates.Debate", on_delete=models.CASCADE, related_name="notes")
    rolling_summary = models.TextField(blank=True)  # one line per aspect round
    # The conversation-memory seed's rolling summary, one per ~12 main-channel messages:
    # [{"from_turn": int, "to_turn": int, "text": str}] (debates/blackboard/summaries.py).
    summaries = models.JSONField(default=list)
    # Proposals every participant accepted, in the proposal's words (conversation.py).
    decisions = models.JSONField(default=list)
    # [{"id", "by": name, "proposal": str, "turn", "status": active|accepted|rejected,
    #   "reactions": {name: support|oppose|undetermined}}]
    proposals = models.JSONField(default=list)
    # New disagreements x3 + concessions x4 + shifts x5 since the last reflection.
    epistemic_score = models.PositiveIntegerField(default=0)
    messages_ledgered = models.PositiveIntegerField(default=0)
