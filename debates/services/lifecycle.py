"""Starting, stopping, resuming and sharing debates: what the views and the CLI call."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from celery import current_app
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from debates import broadcast
from debates.models import Debate, Participant
from debates.modes import DEFAULT_MODE, hand_problem, mode_find
from debates.payloads import DebateContinued
from debates.services.context import context_fields, context_read_again
from debates.services.events import event_append
from debates.services.leases import debate_is_being_run
from debates.services.quotas import quota_check_start
from gateways.llm.models import ModelCall
from personas.models import Deck, Persona
from personas.selectors import persona_is_visible_to

MAX_TOPIC_LENGTH = 500
# A mode whose budget is rounds (its spec row names a rounds setting) runs 1..MAX_ROUNDS of them.
MAX_ROUNDS = 10
# A debate still queued after this long, with no orchestrator on it, may be resumed by hand.
STALE_AFTER_SECONDS = 90
RUN_DEBATE_TASK = "orchestration.run_debate"


def _clean_topic(topic: str) -> str:
    topic = (topic or "").strip()
    if not topic:
        raise ValidationError({"topic": "Type a topic for the debate."})
    if len(topic) > MAX_TOPIC_LENGTH:
        raise ValidationError({"topic": f"Keep the topic to {MAX_TOPIC_LENGTH} characters or fewer."})
    return topic


@dataclass(frozen=True)
class DebateOptions:
    """The owner's choices about how the debate runs. length: its turn budget, unless max_turns is
    given. auto_continue: an Analyst/Critic debate runs every round without pausing after each one.
    pause_after_round: any mode pauses at the end of each of its rounds (the mode says what a round
    is; the last one is followed by the closing step without a pause). rounds: a mode whose budget
    is rounds runs this many (None: its setting); other modes ignore it.
    recall_all_insights: with no context, recall insights from all the owner's debates (memory/).
    rerun_of: the debate this one re-runs with a swap (atlas/), linked when it is the owner's."""

    length: str = Debate.Length.STANDARD
    auto_continue: bool = False
    pause_after_round: bool = False
    rounds: int | None = None
    recall_all_insights: bool = False
    rerun_of: Debate | None = None  # the debate this one re-runs with a swap (the owner's own)


def debate_create(
    *,
    owner,
    topic: str,
    personas: Sequence[Persona],
    deck: Deck | None = None,
    mode: str = DEFAULT_MODE,
    max_turns: int | None = None,
    context=None,
    options: DebateOptions = DebateOptions(),
) -> Debate:
    """context: the owner's own project, assignment or repository the debate works on (or None)."""
    topic, length = _clean_topic(topic), options.length
    spec = mode_find(mode)
    if spec is None:
        raise ValidationError({"mode": "Pick one of the modes."})
    unique = list(dict.fromkeys(personas))
    if problem := hand_problem(spec, len(unique)):
        raise ValidationError({"personas": problem})
    if length not in Debate.TURNS_FOR_LENGTH:
        raise ValidationError({"length": "Pick a length."})
    # A private persona or deck (one with an owner) is its owner's alone to deal.
    if not all(persona_is_visible_to(persona=persona, user=owner) for persona in unique):
        raise ValidationError({"personas": "Pick personas from the seed decks or your own."})
    if deck is not None and deck.owner_id is not None and deck.owner_id != getattr(owner, "pk", None):
        raise ValidationError({"deck": "Pick one of the seed decks or your own."})
    if options.auto_continue and options.pause_after_round:
        raise ValidationError(
            {"pause_after_round": "Pick either pausing after each round or continuing automatically, not both."}
        )
    if spec.rounds_setting:  # this mode's turn budget is its rounds
        if options.rounds is not None and not 1 <= options.rounds <= MAX_ROUNDS:
            raise ValidationError({"rounds": f"Pick between 1 and {MAX_ROUNDS} rounds."})
        max_turns = options.rounds or max_turns or getattr(settings, spec.rounds_setting)
    context_read_again(owner=owner, target=context)
    with transaction.atomic():
        debate = Debate.objects.create(
            **context_fields(owner=owner, target=context),
            owner=owner,
            topic=topic,
            deck=deck,
            length=length,
            mode=mode,
            max_turns=max_turns or Debate.TURNS_FOR_LENGTH[length],
            provider=settings.FAULTLINE_LLM,
            auto_continue=options.auto_continue,
            pause_after_round=options.pause_after_round,
            recall_all_insights=options.recall_all_insights,
            rerun_of=options.rerun_of if options.rerun_of and options.rerun_of.owner_id == owner.pk else None,
        )
        Participant.objects.bulk_create(
            Participant(debate=debate, persona=persona, seat=seat) for seat, persona in enumerate(unique)
        )
    return debate


def run_enqueue(*, debate_id) -> None:
    """Hand the debate to a worker once the current transaction commits.

    By task name: the orchestrator is a higher layer (orchestration/tasks.py) than this one."""
    transaction.on_commit(lambda: current_app.send_task(RUN_DEBATE_TASK, args=[str(debate_id)]))


def debate_start(**kwargs) -> Debate:
    """Create a debate and hand it to a worker once the rows are committed; refused (nothing
    created, nothing queued) when the owner is at one of their limits."""
    with transaction.atomic():
        quota_check_start(user=kwargs.get("owner"))
        debate = debate_create(**kwargs)
        run_enqueue(debate_id=debate.id)
    return debate


def debate_stop(*, debate: Debate) -> None:
    """Stop after the current turn. A paused debate has no run to notice: one is queued that
    finishes it as stopped at once (its results, no further turn). A finished debate has nothing
    to stop."""
    if debate.status not in (Debate.Status.PENDING, Debate.Status.RUNNING, Debate.Status.PAUSED):
        raise ValidationError(f"This debate is {debate.get_status_display().lower()}; there is nothing to stop.")
    with transaction.atomic():
        paused = Debate.objects.filter(pk=debate.pk, status=Debate.Status.PAUSED).update(
            stop_requested=True, pause_requested=False, status=Debate.Status.PENDING
        )
        if paused:
            run_enqueue(debate_id=debate.id)
        else:
            Debate.objects.filter(pk=debate.pk).update(stop_requested=True)


def debate_pause(*, debate: Debate) -> None:
    """Pause after the current turn: the run lets go of the debate (no worker holds a paused
    debate) until the owner continues it."""
    if debate.status not in (Debate.Status.PENDING, Debate.Status.RUNNING):
        raise ValidationError("Only a debate that is running can be paused.")
    Debate.objects.filter(pk=debate.pk, status__in=[Debate.Status.PENDING, Debate.Status.RUNNING]).update(
        pause_requested=True
    )


def debate_continue(*, debate: Debate, auto_continue: bool | None = None, enqueue: bool = True) -> None:
    """Continue a paused debate where it stopped: persisted as an event, then queued for a worker
    (``enqueue=False``: the caller runs it in the foreground, as ``rundebate --resume`` does).
    auto_continue: True runs the remaining rounds without pausing (Analyst/Critic's auto-continue,
    and any mode's pause after each round turned off)."""
    with transaction.atomic():
        locked = Debate.objects.select_for_update().get(pk=debate.pk)
        if locked.status != Debate.Status.PAUSED:
            raise ValidationError("This debate is not paused; there is nothing to continue.")
        quota_check_start(user=locked.owner, resuming=locked)
        changes = {"status": Debate.Status.PENDING, "pause_requested": False, "stop_requested": False, "recoveries": 0}
        if auto_continue is not None:
            changes["auto_continue"] = auto_continue
        if auto_continue:
            changes["pause_after_round"] = False
        Debate.objects.filter(pk=debate.pk).update(**changes)
        event_append(
            debate_id=debate.id,
            payload=DebateContinued(auto_continue=changes.get("auto_continue", locked.auto_continue)),
        )
        if enqueue:
            run_enqueue(debate_id=debate.id)


def debate_is_orphaned(*, debate: Debate) -> bool:
    """A debate that should be running but that no orchestrator holds (its worker died)."""
    if debate.status == Debate.Status.RUNNING:
        return not debate_is_being_run(debate_id=debate.id)
    if debate.status == Debate.Status.PENDING:
        # Queued but never picked up: give the queue a fair chance before offering a resume. A
        # continued debate was queued by its last event (debate_continued), not at its creation.
        queued_at = debate.events.order_by("-seq").values_list("created_at", flat=True).first() or debate.created_at
        waited = (timezone.now() - max(queued_at, debate.created_at)).total_seconds()
        return waited > STALE_AFTER_SECONDS and not debate_is_being_run(debate_id=debate.id)
    return False


def debate_can_resume(*, debate: Debate) -> bool:
    return debate.status == Debate.Status.FAILED or debate_is_orphaned(debate=debate)


def debate_resume(*, debate: Debate) -> None:
    """Queue the orchestrator again; it continues after the last persisted event."""
    if not debate_can_resume(debate=debate):
        raise ValidationError("This debate is still running or already finished; there is nothing to resume.")
    with transaction.atomic():
        quota_check_start(user=debate.owner, resuming=debate)
        # A person asking again gets a fresh count of recoveries.
        Debate.objects.filter(pk=debate.pk).update(stop_requested=False, recoveries=0)
        run_enqueue(debate_id=debate.id)


def debate_share(*, debate: Debate) -> str:
    if not debate.share_token:
        debate.share_token = secrets.token_urlsafe(16)
        debate.save(update_fields=["share_token"])
    return debate.share_token


def debate_unshare(*, debate: Debate) -> None:
    debate.share_token = None
    debate.save(update_fields=["share_token"])
    # Viewers already watching through the link are disconnected, not just refused next time.
    transaction.on_commit(lambda: broadcast.access_changed(debate_id=debate.id))


def debate_rename(*, debate: Debate, topic: str) -> None:
    debate.topic = _clean_topic(topic)
    debate.save(update_fields=["topic"])


def debate_delete(*, debate: Debate) -> None:
    """Delete a debate and all it produced. One that is running is refused (its orchestrator
    would go on writing into rows that are gone): stop it first. Its model calls stay in the
    ledger, billed to its owner, so deleting a debate gives back no spend under the quotas."""
    if debate.status in (Debate.Status.PENDING, Debate.Status.RUNNING) and not debate_is_orphaned(debate=debate):
        raise ValidationError(
            "This debate is still running: stop it, wait until it says it has stopped, then delete it."
        )
    debate_id = debate.id
    with transaction.atomic():
        ModelCall.objects.filter(debate=debate).update(owner_of_deleted_debate=debate.owner_id)
        debate.delete()
        transaction.on_commit(lambda: broadcast.access_changed(debate_id=debate_id))
