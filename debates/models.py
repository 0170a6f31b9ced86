import uuid

from django.conf import settings
from django.db import models


class Debate(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a worker"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        COMPLETED = "completed", "Completed"
        FAILED = "failed", "Failed"
        STOPPED = "stopped", "Stopped"

    class Length(models.TextChoices):
        SHORT = "short", "Short (about 12 turns)"
        STANDARD = "standard", "Standard (about 30 turns)"
        LONG = "long", "Long (about 60 turns)"

    TURNS_FOR_LENGTH = {"short": 12, "standard": 30, "long": 60}

    class ContextType(models.TextChoices):
        NONE = "none", "No context"
        PROJECT = "project", "Project"
        ASSIGNMENT = "assignment", "Assignment"
        REPOSITORY = "repository", "Repository"

    FINISHED = (Status.COMPLETED, Status.FAILED, Status.STOPPED)

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="debates"
    )
    topic = models.CharField(max_length=500)
    deck = models.ForeignKey("personas.Deck", null=True, blank=True, on_delete=models.SET_NULL)
    personas = models.ManyToManyField("personas.Persona", through="Participant", related_name="debates")
    # A key of the mode table (debates/modes.py), not choices here: a registered mode needs no migration.
    mode = models.CharField(max_length=20, default="dialogue")
    length = models.CharField(max_length=20, choices=Length.choices, default=Length.STANDARD)
    max_turns = models.PositiveIntegerField(default=30)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    phase = models.CharField(max_length=30, blank=True)
    failure_reason = models.TextField(blank=True)
    provider = models.CharField(max_length=20, blank=True, help_text="Model provider that produced its text.")
    # The sequence number of the last persisted event; events are numbered 1, 2, 3... per debate.
    last_seq = models.PositiveIntegerField(default=0)
    stop_requested = models.BooleanField(default=False)
    # The owner asked for a pause: the run pauses after the current turn (orchestration/loop.py).
    pause_requested = models.BooleanField(default=False)
    # Analyst/Critic mode: run every round without pausing after each one (chosen at setup).
    auto_continue = models.BooleanField(default=False)
    # Every mode: pause at the end of each of its rounds (what a round is, the mode says:
    # orchestration/loop.py DebateRun.round_ended), chosen at setup or with rundebate --pause-after-round.
    pause_after_round = models.BooleanField(default=False)
    # A debate with no context recalls none of its owner's earlier insights unless they opted in
    # here at setup: then it searches all of them (memory/services/recall.py).
    recall_all_insights = models.BooleanField(default=False)
    # Started from another debate with one persona swapped ("re-run with a swap", atlas/): the crux
    # atlas links the two, so its owner sees which persona brings which crux.
    rerun_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reruns")
    # Runs started on this debate after its worker died, in a row; past a limit it is failed.
    recoveries = models.PositiveSmallIntegerField(default=0)
    # Disagreement-detection windows scanned so far (1, 2, ...), so a run that follows a dead one
    # scans the windows it never got to instead of skipping them.
    detection_windows_done = models.PositiveIntegerField(default=0)
    share_token = models.CharField(max_length=40, unique=True, null=True, blank=True)
    # [{"label": ..., "description": ...}], decided by the orchestrator at the start.
    aspects = models.JSONField(default=list, blank=True)
    # The yes/no question the verdict is about, as planning put the topic (the topic itself when it
    # is one); "" until planned, and when no yes/no question fits (no_yes_no: the verdict then
    # reports agreement per crux). debates/question.py reads them.
    decided_on = models.CharField(max_length=300, blank=True)
    no_yes_no = models.BooleanField(default=False)
    results = models.JSONField(default=dict, blank=True)
    # The owner's material the debate works on (projects app). The project is set for every
    # context type, so a project lists all its debates; the text is assembled once, budgeted, when
    # the debate is created, and the label names it on the page and in exports, even once the
    # project is gone.
    context_type = models.CharField(max_length=20, choices=ContextType.choices, default=ContextType.NONE)
    context_project = models.ForeignKey(
        "projects.Project", null=True, blank=True, on_delete=models.SET_NULL, related_name="debates"
    )
    context_assignment = models.ForeignKey(
        "projects.Assignment", null=True, blank=True, on_delete=models.SET_NULL, related_name="debates"
    )
    context_repository = models.ForeignKey(
        "projects.Repository", null=True, blank=True, on_delete=models.SET_NULL, related_name="debates"
    )
    context_label = models.CharField(max_length=300, blank=True)
    context_text = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        permissions = [("view_any_debate", "Can watch any user's debate, private ones included")]

    def __str__(self):
        return self.topic[:80]


class UserQuota(models.Model):
    """One user's own limits, raising (or lowering) the site-wide defaults in settings.

    An empty field means "the site default". Staff are never limited (debates.services.quotas).
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quota")
    max_concurrent_debates = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Debates running at once. Empty: FAULTLINE_MAX_CONCURRENT_DEBATES."
    )
    daily_spend_usd = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="Estimated model spend per day (UTC), in USD. Empty: FAULTLINE_DAILY_SPEND_USD; 0: no cap.",
    )
    monthly_spend_usd = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="Estimated model spend per calendar month, in USD. Empty: FAULTLINE_MONTHLY_SPEND_USD; 0: no cap.",
    )

    def __str__(self):
        return f"quota of {self.user}"


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


class Event(models.Model):
    """Every state change of a debate, numbered, persisted before it is pushed to any browser.

    Payloads carry everything needed to redraw the debate, so a replay is a fold over events.
    """

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=40)
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["debate", "seq"]
        constraints = [models.UniqueConstraint(fields=["debate", "seq"], name="unique_event_seq_per_debate")]

    def __str__(self):
        return f"#{self.seq} {self.kind}"


class Message(models.Model):
    """One utterance, in the main channel or in a crux room (the projection the orchestrator reads)."""

    class Kind(models.TextChoices):
        OPENING = "opening"
        KEY_ARGUMENT = "key_argument"
        REPLY = "reply"
        DISMISSAL = "dismissal"
        CLOSING = "closing"
        ENTRY = "entry"  # crux room entry statement
        EXCHANGE = "exchange"  # crux room free exchange
        ANALYSIS = "analysis"  # Analyst/Critic mode: the Analyst's answer
        CRITIQUE = "critique"  # Analyst/Critic mode: the Critic's evaluation
        SYNTHESIS = "synthesis"  # Analyst/Critic mode: the final balanced answer
        DRAFT = "draft"  # Collaborate mode: a role's first answer to the brief
        REVISION = "revision"  # Collaborate mode: a role's answer revised on the other's
        ARTIFACT = "artifact"  # Collaborate mode: the one Markdown document both answers became
        ANSWER = "answer"  # a persona's answer to the owner's interjection (debates/services/interjections.py)

    class Status(models.TextChoices):
        STREAMING = "streaming"
        COMPLETE = "complete"

    class Unanswered(models.TextChoices):
        """Why a finished output holds no words of its speaker (Collaborate mode): the page and the
        exports say so, and no placeholder ever stands in the text as if the role had said it."""

        WROTE_NOTHING = "wrote_nothing"  # the model's reply was empty
        CALL_FAILED = "call_failed"  # the model call failed (not an outage, which is waited out)

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="messages")
    room = models.ForeignKey("crux.CruxRoom", null=True, blank=True, on_delete=models.CASCADE, related_name="messages")
    persona = models.ForeignKey("personas.Persona", on_delete=models.PROTECT)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    aspect_index = models.PositiveSmallIntegerField(null=True, blank=True)
    # Position in its channel (main channel turn number, or room turn number), from 1.
    turn = models.PositiveIntegerField()
    text = models.TextField(blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.STREAMING)
    # Folded into the position ledger (or skipped by it); a run that follows a dead one folds the
    # finished messages still False.
    ledgered = models.BooleanField(default=False)
    # 1-10, from the ledger extraction (null until ledgered): 7 and up is kept in persona memory.
    importance = models.PositiveSmallIntegerField(null=True, blank=True)
    # The persona's own writing this turn leaned on (personas/corpus/citations.py):
    # [{"tag": "C1", "chunk_id": int, "source": str, "excerpt": str}]
    citations = models.JSONField(default=list, blank=True)
    # The token limit cut the reply short: its text ends at its last whole sentence, and the page and
    # the exports say it was cut.
    cut_off = models.BooleanField(default=False)
    # Set when the speaker said nothing (its text then stays empty); "" for a message with words.
    unanswered = models.CharField(max_length=16, choices=Unanswered.choices, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["debate", "room", "turn"], name="unique_turn_per_channel", nulls_distinct=False
            ),
        ]

    def __str__(self):
        return f"{self.persona_id}: {self.text[:60]}"


class Interjection(models.Model):
    """The owner speaking into a running debate: a question, a piece of evidence (text, a link or
    one of the owner's project documents) or a challenge, to one persona or to whoever is most
    concerned. The run reads it from here at its next turn boundary (debates/services/interjections.py),
    so a debate run by another process picks it up."""

    class Kind(models.TextChoices):
        QUESTION = "question", "Question"
        EVIDENCE = "evidence", "Evidence"
        CHALLENGE = "challenge", "Challenge"

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="interjections")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.QUESTION)
    text = models.TextField()
    link = models.URLField(max_length=500, blank=True)
    document = models.ForeignKey(
        "projects.Document", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    document_title = models.CharField(max_length=200, blank=True)  # kept if the document is deleted
    to_persona = models.ForeignKey(
        "personas.Persona", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seq = models.PositiveIntegerField(default=0)  # its interjection_posted event's
    # The main-channel turn that took it up (its answer's turn); null while it waits for the run.
    read_at_turn = models.PositiveIntegerField(null=True, blank=True)
    answer = models.ForeignKey(Message, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"{self.kind}: {self.text[:60]}"


class DebateMember(models.Model):
    """Someone the owner invited to read the debate and take sides on it. A member changes nothing
    else, and never sees what is the owner's alone (context, recalled memory, cost, quotas)."""

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="debate_memberships")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "id"]
        constraints = [models.UniqueConstraint(fields=["debate", "user"], name="one_membership_per_debate_and_user")]


class DebateInvite(models.Model):
    """A single-use invite link: whoever accepts it first becomes a member, and it works no more."""

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)


class PersonSide(models.Model):
    """A person's side (the owner's or a member's) on one crux card of a debate, or on the debate's
    own question, as recorded at one moment. Changing a side adds a row: the latest is the side,
    the earlier ones its history. People's words are data shown to people: no persona prompt and
    no memory fact ever reads them."""

    class Side(models.TextChoices):
        YES = "YES", "Yes"
        NO = "NO", "No"
        NUANCED = "NUANCED", "Nuanced"

    debate = models.ForeignKey(Debate, on_delete=models.CASCADE, related_name="person_sides")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="debate_sides")
    # The crux card's id (crux.CruxCard, kept by value: the record layer sits below crux); None is
    # the debate's own question.
    card_id = models.PositiveIntegerField(null=True, blank=True)
    side = models.CharField(max_length=10, choices=Side.choices)
    because = models.CharField(max_length=200, blank=True, help_text="What would change their mind, in one sentence.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["debate", "user", "card_id", "created_at"], name="person_side_latest")]


# The blackboard lives in its own module; Django finds models through this one.
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection, RoundRecord  # noqa: E402, F401
