"""Starting, stopping, resuming and sharing debates: what the views and the CLI call."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from debates import broadcast
from debates.models import Debate, Participant
from personas.models import Deck, Persona

MIN_HAND, MAX_HAND = 2, 6
MAX_TOPIC_LENGTH = 500
# A debate still queued after this long, with no orchestrator on it, may be resumed by hand.
STALE_AFTER_SECONDS = 90


def debate_create(
    *,
    owner,
    topic: str,
    personas: Sequence[Persona],
    deck: Deck | None = None,
    length: str = Debate.Length.STANDARD,
    mode: str = Debate.Mode.DIALOGUE,
    max_turns: int | None = None,
) -> Debate:
    topic = (topic or "").strip()
    if not topic:
        raise ValidationError({"topic": "Type a topic for the debate."})
    if len(topic) > MAX_TOPIC_LENGTH:
        raise ValidationError({"topic": f"Keep the topic to {MAX_TOPIC_LENGTH} characters or fewer."})
    unique = list(dict.fromkeys(personas))
    if not MIN_HAND <= len(unique) <= MAX_HAND:
        raise ValidationError({"personas": f"Pick between {MIN_HAND} and {MAX_HAND} personas."})
    if length not in Debate.TURNS_FOR_LENGTH:
        raise ValidationError({"length": "Pick a length."})
    from django.conf import settings

    with transaction.atomic():
        debate = Debate.objects.create(
            owner=owner,
            topic=topic,
            deck=deck,
            length=length,
            mode=mode,
            max_turns=max_turns or Debate.TURNS_FOR_LENGTH[length],
            provider=settings.FAULTLINE_LLM,
        )
        Participant.objects.bulk_create(
            Participant(debate=debate, persona=persona, seat=seat) for seat, persona in enumerate(unique)
        )
    return debate


def debate_start(**kwargs) -> Debate:
    """Create a debate and hand it to a worker once the rows are committed."""
    from debates.tasks import run_debate

    with transaction.atomic():
        debate = debate_create(**kwargs)
        run_debate.delay_on_commit(str(debate.id))
    return debate


def debate_stop(*, debate: Debate) -> None:
    Debate.objects.filter(pk=debate.pk).update(stop_requested=True)


def debate_is_orphaned(*, debate: Debate) -> bool:
    """A debate that should be running but that no orchestrator holds (its worker died)."""
    from debates.orchestrator import debate_is_being_run

    if debate.status == Debate.Status.RUNNING:
        return not debate_is_being_run(debate_id=debate.id)
    if debate.status == Debate.Status.PENDING:
        # Queued but never picked up: give the queue a fair chance before offering a resume.
        waited = (timezone.now() - debate.created_at).total_seconds()
        return waited > STALE_AFTER_SECONDS and not debate_is_being_run(debate_id=debate.id)
    return False


def debate_can_resume(*, debate: Debate) -> bool:
    return debate.status == Debate.Status.FAILED or debate_is_orphaned(debate=debate)


def debate_resume(*, debate: Debate) -> None:
    """Queue the orchestrator again; it continues after the last persisted event."""
    from debates.tasks import run_debate

    if not debate_can_resume(debate=debate):
        raise ValidationError("This debate is still running or already finished; there is nothing to resume.")
    with transaction.atomic():
        Debate.objects.filter(pk=debate.pk).update(stop_requested=False)
        run_debate.delay_on_commit(str(debate.id))


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
