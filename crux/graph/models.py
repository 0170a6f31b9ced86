from django.db import models


class DisputeGraphState(models.Model):
    """A graph-mode debate's argument map as it stands, and how it got there.

    The map itself is crux.graph.DisputeGraph.to_dict(); every change to it is also an event in
    the debate's log (graph_updated), so this row is what the orchestrator resumes from and the log
    is what pages replay."""

    debate = models.OneToOneField("debates.Debate", on_delete=models.CASCADE, related_name="dispute_graph")
    graph = models.JSONField(default=dict)
    # One entry per crystallization: {"round", "turns", "labels", "new_attacks", "applied", "rejected"}.
    rounds = models.JSONField(default=list)
    # The last main-channel turn the crystallizer has read.
    crystallized_through = models.PositiveIntegerField(default=0)
    converged = models.CharField(max_length=30, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self):
        return f"Argument map of {self.debate_id}"
