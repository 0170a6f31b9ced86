"""Long-term memory: what a finished debate leaves for later ones (seeds/dual-ai-debate.md, Proflow's
debate memory). Private to its owner and scoped to the debate's project (and assignment or
repository, when the debate had one). Replaces the old `debates.DebateMemory`, which nothing wrote.

Each vector records the model that made it; recall compares only vectors of the current model
(`manage.py reembed` brings old ones over after a switch).
"""

from django.conf import settings
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector
from django.db import models
from pgvector.django import HalfVectorField, HnswIndex

from gateways.embeddings.types import DIMENSIONS


class EmbeddedMemory(models.Model):
    """What both kinds of memory share: a text, its vector and the model that made it (recall
    compares only vectors of one model), and how often it was recalled."""

    text = models.TextField()
    # Null when the embedding failed: the memory is still stored (and an insight still found by
    # full-text search). Half precision (2 bytes a dimension): a row holds its vector inline
    # instead of in TOAST, and the table and its HNSW index are half the size; cosine similarity
    # moves by about 1e-3, recall@10 not measurably (benchmarks/README.md, long-term memory).
    embedding = HalfVectorField(dimensions=DIMENSIONS, null=True, blank=True)
    embedding_model = models.CharField(max_length=80, blank=True)
    times_retrieved = models.PositiveIntegerField(default=0)
    last_retrieved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "id"]


def embedding_index(name: str) -> HnswIndex:
    """The HNSW index (cosine) recall's nearest-neighbour queries use. ef_construction 128 (64
    before): at 1M rows recall@10 0.99 instead of 0.90 at the same query cost, for a build about
    1.5 times longer (benchmarks/README.md, long-term memory)."""
    return HnswIndex(name=name, fields=["embedding"], m=16, ef_construction=128, opclasses=["halfvec_cosine_ops"])


class Insight(EmbeddedMemory):
    class Kind(models.TextChoices):
        AGREED = "agreed", "Agreed point"
        FINDING = "finding", "Key finding"
        DECISION = "decision", "Decision"
        CRUX = "crux", "Crux"
        RESOLUTION = "resolution", "Crux resolution"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="insights")
    project = models.ForeignKey(
        "projects.Project", null=True, blank=True, on_delete=models.CASCADE, related_name="insights"
    )
    assignment = models.ForeignKey(
        "projects.Assignment", null=True, blank=True, on_delete=models.SET_NULL, related_name="insights"
    )
    repository = models.ForeignKey(
        "projects.Repository", null=True, blank=True, on_delete=models.SET_NULL, related_name="insights"
    )
    debate = models.ForeignKey(
        "debates.Debate", null=True, blank=True, on_delete=models.SET_NULL, related_name="insights"
    )

    class Review(models.TextChoices):
        """Whether the owner took a candidate fact as settled. Only a confirmed fact is given to
        later debates as an ESTABLISHED FACT; a rejected one is never recalled at all."""

        NOT_A_FACT = "", "Not a fact"
        CANDIDATE = "candidate", "Awaiting your review"
        CONFIRMED = "confirmed", "Confirmed"
        REJECTED = "rejected", "Rejected"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    confidence = models.FloatField()
    agreed_by_all = models.BooleanField(default=False)
    review = models.CharField(max_length=10, choices=Review.choices, blank=True, default=Review.NOT_A_FACT)

    class Meta(EmbeddedMemory.Meta):
        indexes = [
            embedding_index("insight_embedding_hnsw"),
            models.Index(fields=["owner", "project", "embedding_model"], name="insight_scope"),
            models.Index(fields=["owner", "repository", "embedding_model"], name="insight_repository_scope"),
            GinIndex(SearchVector("text", config="english"), name="insight_text_search"),
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.text[:60]}"

    @property
    def established(self) -> bool:
        return self.review == self.Review.CONFIRMED

    @property
    def candidate(self) -> bool:
        return self.review == self.Review.CANDIDATE


# What makes an insight a candidate fact, for its owner to confirm: agreed by every participant's
# final position, at this confidence or more (memory/extraction.py).
ESTABLISHED_MIN_CONFIDENCE = 0.85


class MemoryRecall(models.Model):
    """What one debate recalled before it began: made once (a resumed run reads it back), so every
    persona call of the debate sees the same memory, and the debate's page can name it."""

    class Method(models.TextChoices):
        VECTOR = "vector", "Semantic search"
        TEXT = "text", "Full-text search (embedding failed)"
        NONE = "none", "Nothing to recall"

    class Scope(models.TextChoices):
        PROJECT = "project", "this project's debates"
        REPOSITORY = "repository", "this repository's debates, then its project's"
        ASSIGNMENT = "assignment", "this assignment's debates, then its project's"
        ALL = "all", "all your debates (you opted in)"
        NONE = "none", "nothing: a debate with no context recalls no insights unless you opt in"

    debate = models.OneToOneField("debates.Debate", on_delete=models.CASCADE, related_name="memory_recall")
    method = models.CharField(max_length=10, choices=Method.choices)
    note = models.TextField(blank=True)  # said to the owner, e.g. why text search was used
    # Why each item was recalled: whose insights were searched, and the floors they had to clear
    # (memory/relevance.py, for the model that made the vectors). Empty for recalls made before.
    scope = models.CharField(max_length=10, choices=Scope.choices, blank=True)
    embedding_model = models.CharField(max_length=80, blank=True)
    insight_floor = models.FloatField(null=True, blank=True)
    fact_floor = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)


class RecalledInsight(models.Model):
    recall = models.ForeignKey(MemoryRecall, on_delete=models.CASCADE, related_name="items")
    insight = models.ForeignKey(Insight, on_delete=models.CASCADE, related_name="recalls")
    similarity = models.FloatField(null=True, blank=True)  # cosine; text rank when method is text
    established = models.BooleanField(default=False)
    # Whose it is: the repository's or assignment's the debate worked on (recalled first), or the
    # project's (or, opted in, any of the owner's). Recalls made before scopes were kept: project.
    scope = models.CharField(max_length=10, choices=MemoryRecall.Scope.choices, default=MemoryRecall.Scope.PROJECT)
    rank = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["recall", "rank"]
        constraints = [models.UniqueConstraint(fields=["recall", "insight"], name="recall_each_insight_once")]


class PersonaMemory(EmbeddedMemory):
    """What one persona said, held or conceded in one of its owner's debates (blackboard phase 5):
    position snapshots when its stance changed, its concessions, reflections about it, its crux
    cards and its messages of importance 7 and up. Recalled into that persona's later debates of
    the same owner by 0.5·recency + 3·relevance + 2·importance (memory/scoring.py)."""

    class Kind(models.TextChoices):
        POSITION = "position", "Position"
        CONCESSION = "concession", "Concession"
        REFLECTION = "reflection", "Reflection"
        CRUX_CARD = "crux_card", "Crux card"
        MESSAGE = "message", "Message"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="persona_memories")
    persona = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="memories")
    project = models.ForeignKey(
        "projects.Project", null=True, blank=True, on_delete=models.SET_NULL, related_name="persona_memories"
    )
    debate = models.ForeignKey(
        "debates.Debate", null=True, blank=True, on_delete=models.SET_NULL, related_name="persona_memories"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    importance = models.PositiveSmallIntegerField()  # 1-10

    class Meta(EmbeddedMemory.Meta):
        indexes = [
            embedding_index("persona_memory_hnsw"),
            models.Index(fields=["owner", "persona", "embedding_model"], name="persona_memory_scope"),
        ]

    def __str__(self):
        return f"{self.persona_id} {self.kind}: {self.text[:60]}"


class RecalledPersonaMemory(models.Model):
    """One persona memory a debate recalled for one persona, with its three score terms."""

    recall = models.ForeignKey(MemoryRecall, on_delete=models.CASCADE, related_name="persona_items")
    memory = models.ForeignKey(PersonaMemory, on_delete=models.CASCADE, related_name="recalls")
    persona = models.ForeignKey("personas.Persona", on_delete=models.CASCADE, related_name="+")
    recency = models.FloatField()
    relevance = models.FloatField()
    importance = models.FloatField()
    score = models.FloatField()
    rank = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["recall", "persona", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["recall", "memory"], name="recall_each_persona_memory_once"),
        ]


class InDebateMemory(EmbeddedMemory):
    """One thing said or established earlier in a debate, embedded once (off the turn's critical
    path, orchestration/recalling.py) so a later turn of the same debate can recall it by
    0.5·recency + 3·relevance + 2·importance above the model's relevance floor
    (memory/services/in_debate.py): every finished message, main channel and crux rooms, and the
    ledger's items (concessions, cited evidence, position shifts, reflections, crux cards)."""

    class Kind(models.TextChoices):
        MESSAGE = "message", "Message"
        CONCESSION = "concession", "Concession"
        EVIDENCE = "evidence", "Evidence cited"
        SHIFT = "shift", "Position shift"
        REFLECTION = "reflection", "Reflection"
        CRUX_CARD = "crux_card", "Crux card"

    debate = models.ForeignKey("debates.Debate", on_delete=models.CASCADE, related_name="in_debate_memories")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    # What it stands for, so each is stored once: "message:<id>", "concession:<persona>:<digest>"…
    key = models.CharField(max_length=120)
    message = models.ForeignKey("debates.Message", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    importance = models.PositiveSmallIntegerField(default=5)  # 1-10; a message's is read from it once ledgered

    class Meta(EmbeddedMemory.Meta):
        ordering = ["id"]  # the order things were said in: recency counts back along it
        constraints = [models.UniqueConstraint(fields=["debate", "key"], name="in_debate_memory_once")]
        indexes = [models.Index(fields=["debate", "embedding_model"], name="in_debate_memory_scope")]

    def __str__(self):
        return f"{self.debate_id} {self.kind}: {self.text[:60]}"
