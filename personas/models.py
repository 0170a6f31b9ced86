"""Personas (contracts with a voice) and the decks that group them for a topic area.

A contract mirrors the seed's PersonaContract JSON (personaId, version, personality, bias, stakes,
epistemology, timeHorizon, flipConditions, evidencePolicy, anchorExcerpts) plus a voice profile.
"""

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone


def _validate_string_list(value):
    if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
        raise ValidationError("Must be a list of non-empty strings.")


class Persona(models.Model):
    # The seed's personaId: a stable, URL-safe handle ("the-macro-bear"). Unique per owner, not
    # globally: a user can never learn which ids other users' private personas have.
    persona_id = models.SlugField(max_length=80)
    # None: a seed (public) persona everyone can see and deal; otherwise private to its owner.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="personas"
    )
    name = models.CharField(max_length=120, help_text="Display name shown on the card and in chat.")
    tagline = models.CharField(max_length=200, blank=True, help_text="One line on the card face.")
    version = models.CharField(max_length=40, help_text="Contract version (ISO timestamp of its build).")

    personality = models.TextField(help_text="Who they are, their worldview.")
    bias = models.TextField(help_text="Blind spots, motivated reasoning.")
    stakes = models.TextField(help_text="What they have to gain or lose.")
    epistemology = models.TextField(help_text="How they weigh evidence and form beliefs.")
    time_horizon = models.TextField(help_text="Short-term versus long-term framing.")
    flip_conditions = models.TextField(help_text="What evidence would change their position.")
    # {"acceptedSources": [...], "rejectedSources": [...], "weighting": "..."}
    evidence_policy = models.JSONField(default=dict)

    # Voice profile: how they talk, not what they believe.
    speech_patterns = models.JSONField(default=list, blank=True, validators=[_validate_string_list])
    vocabulary = models.JSONField(default=list, blank=True, validators=[_validate_string_list])
    forbidden_phrases = models.JSONField(default=list, blank=True, validators=[_validate_string_list])
    # [{"situation": "...", "response": "..."}]
    voice_examples = models.JSONField(default=list, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "persona_id"], name="persona_id_once_per_owner"),
            # NULL owners are never equal to each other: the seed needs its own constraint.
            models.UniqueConstraint(
                fields=["persona_id"], condition=models.Q(owner__isnull=True), name="persona_id_once_in_seed"
            ),
        ]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("persona_detail", kwargs={"pk": self.pk})


class AnchorExcerpt(models.Model):
    """A short passage in the persona's own voice, used as a few-shot example in prompts."""

    persona = models.ForeignKey(Persona, on_delete=models.CASCADE, related_name="anchor_excerpts")
    excerpt_id = models.CharField(max_length=80)
    content = models.TextField()
    source = models.CharField(max_length=200, blank=True)
    date = models.CharField(max_length=40, blank=True)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["persona", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["persona", "excerpt_id"], name="unique_excerpt_per_persona"),
        ]

    def __str__(self):
        return f"{self.persona.name}: {self.content[:60]}"


class Deck(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    topic_area = models.CharField(max_length=120, blank=True)
    # None: a seed (public) deck; otherwise private to its owner.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="decks"
    )
    personas = models.ManyToManyField(Persona, related_name="decks", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("deck_detail", kwargs={"pk": self.pk})


def batch_look_grace() -> timedelta:
    """How long a build waiting on a batch may go without a look before a sweep queues one (its
    worker, or the look it had queued, is gone): three looks' worth, and at least two minutes."""
    return timedelta(seconds=max(3 * settings.FAULTLINE_BATCH_POLL_SECONDS, 120))


class PersonaBuild(models.Model):
    """A persona being built from an uploaded corpus: the uploaded files wait here while a worker
    reads them (in a limited child process) and drafts the contract, then the draft waits for
    its owner's review. Saving it creates the persona (with its corpus); nothing but this row
    exists before that."""

    STALE_AFTER = timedelta(minutes=5)

    class Status(models.TextChoices):
        DRAFTING = "drafting", "Drafting"
        READY = "ready", "Ready for review"
        FAILED = "failed", "Failed"
        SAVING = "saving", "Saving"
        SAVED = "saved", "Saved"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="persona_builds")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFTING)
    # The uploaded files ([{"name", "data": base64}]) until a worker has read them; then the
    # PreparedCorpus.to_dict() of their text.
    files = models.JSONField(default=list, blank=True)
    corpus = models.JSONField(default=dict)
    # PersonaDraft.to_dict() once drafted (the corpus inside it too).
    draft = models.JSONField(null=True, blank=True)
    errors = models.JSONField(default=list, blank=True)
    persona = models.ForeignKey(Persona, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Drafted at half price through the Message Batches API (the owner's choice, when the provider
    # has one): the batch's id once sent, when it was sent, when a worker last looked at it, and
    # when it was canceled for waiting past FAULTLINE_BATCH_MAX_WAIT_SECONDS.
    batched = models.BooleanField(default=False)
    batch_id = models.CharField(max_length=100, blank=True)
    batch_sent_at = models.DateTimeField(null=True, blank=True)
    batch_looked_at = models.DateTimeField(null=True, blank=True)
    batch_canceled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"{self.name} ({self.get_status_display()})"

    @property
    def waits_on_batch(self) -> bool:
        """Drafting, its call sent as a Message Batch whose answer has not been read yet."""
        return self.status == self.Status.DRAFTING and bool(self.batch_id)

    @property
    def is_working(self) -> bool:
        """A worker has it (drafting, or saving: embedding and storing the corpus)."""
        return self.status in {self.Status.DRAFTING, self.Status.SAVING}

    @property
    def is_stale(self) -> bool:
        """Still drafting long after a model would have answered, or (waiting on a batch) not
        looked at for longer than the looks' grace: the worker may be down."""
        if self.waits_on_batch:
            looked = self.batch_looked_at or self.batch_sent_at or self.created_at
            return timezone.now() - looked > batch_look_grace()
        return self.status == self.Status.DRAFTING and timezone.now() - self.created_at > self.STALE_AFTER


class CorpusUpload(models.Model):
    """A corpus uploaded for an existing persona, read and stored by a worker (the files in a
    limited child process; embedding is the slow part). The persona's previous corpus stays until
    the new one is stored whole."""

    class Status(models.TextChoices):
        STORING = "storing", "Storing"
        STORED = "stored", "Stored"
        FAILED = "failed", "Failed"

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    persona = models.ForeignKey(Persona, on_delete=models.CASCADE, related_name="corpus_uploads")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.STORING)
    files = models.JSONField(default=list, blank=True)  # the uploaded files until a worker reads them
    corpus = models.JSONField(default=dict)  # PreparedCorpus.to_dict() until stored
    # What the owner is told: the summary once stored, or why it failed.
    report = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Corpus of {self.persona} ({self.get_status_display()})"


# The corpus models live in their own module (personas/corpus/models.py); importing them here is
# how Django finds them.
from personas.corpus.models import CorpusChunk, CorpusDocument  # noqa: E402, F401
