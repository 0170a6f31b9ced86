"""Disagreement detection over sliding windows of the main channel, with staged commitment."""

from __future__ import annotations

import logging
from dataclasses import replace

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from crux import staging
from crux.models import CruxRoom, DisagreementCandidate
from crux.prompts import (
    DISAGREEMENT_DETECTOR,
    KNOWN_DISPUTE,
    KNOWN_DISPUTES_INPUT,
    NO_KNOWN_DISPUTES,
    SCAN_INPUT,
)
from crux.schemas import DisagreementScan, WindowDigest
from crux.services.rooms import room_open
from debates.blackboard.ledger import DIGEST_TOKENS_PER_MESSAGE, digest_fold, digest_input
from debates.models import Debate, Message
from debates.prompts import LEDGER_KEEPER
from debates.services.context import side_work_prompt
from debates.services.transcripts import participant_lines, seat_handles, transcript_of
from gateways.embeddings import gateway as embeddings
from gateways.llm import gateway
from gateways.llm.prompt_lines import item_line
from gateways.llm.references import Participants
from gateways.llm.types import CallTag, ModelError, ModelUnavailable, Prompt, Role

logger = logging.getLogger(__name__)


def thresholds() -> staging.Thresholds:
    return staging.Thresholds(
        min_consecutive_windows=settings.CRUX_MIN_CONSECUTIVE_WINDOWS,
        min_confidence=settings.CRUX_MIN_CONFIDENCE,
        pair_cooldown_seconds=settings.CRUX_PAIR_COOLDOWN_SECONDS,
    )


def _tracked(candidate: DisagreementCandidate) -> staging.TrackedCandidate:
    return staging.TrackedCandidate(
        id=candidate.id,
        pair=(candidate.persona_a_id, candidate.persona_b_id),
        dispute=candidate.dispute,
        consecutive_windows=candidate.consecutive_windows,
        seen_count=candidate.seen_count,
        last_window=candidate.last_window,
        confidence=candidate.confidence,
        has_room=hasattr(candidate, "room"),
        source_message_ids=list(candidate.source_message_ids),
        vector=_vector(candidate),
    )


def _vector(candidate: DisagreementCandidate) -> tuple[float, ...] | None:
    """The candidate's dispute vector, if made by the model now in use (only vectors of one model
    are compared)."""
    if candidate.embedding is None or candidate.embedding_model != embeddings.current_model():
        return None
    return tuple(candidate.embedding.to_list() if hasattr(candidate.embedding, "to_list") else candidate.embedding)


def _known(candidates, names: dict[int, str]) -> str:
    """The tracked disputes as item lines, "[12] A vs B: question" (their numbers are what a scan
    answers with, ``known_id``)."""
    lines = [
        item_line(str(c.id), KNOWN_DISPUTE.format(a=names[c.persona_a_id], b=names[c.persona_b_id], dispute=c.dispute))
        for c in candidates
    ]
    return "\n".join(lines) or NO_KNOWN_DISPUTES


def _participants(debate: Debate) -> list:
    return [p.persona for p in debate.participants.select_related("persona").order_by("seat")]


def _scan(debate: Debate, messages: list[Message], candidates: list[DisagreementCandidate]) -> DisagreementScan:
    personas = _participants(debate)
    names = {p.id: p.name for p in personas}
    content = SCAN_INPUT.format(
        participants=participant_lines(personas), known=_known(candidates, names), transcript=transcript_of(messages)
    )
    prompt = Prompt(
        **side_work_prompt(DISAGREEMENT_DETECTOR, debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=500,
        temperature=0.2,
    )
    return gateway.extract(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=DisagreementScan,
        tag=CallTag(
            debate_id=debate.id,
            phase="detection",
            turns=tuple(m.turn for m in messages),
            participants=tuple(p.persona_id for p in personas),
            items=tuple(str(c.id) for c in candidates),
        ),
    )


def _window_done(debate_id, window: int) -> None:
    Debate.objects.filter(pk=debate_id, detection_windows_done__lt=window).update(detection_windows_done=window)


def detection_run(*, debate_id, window: int, message_ids: list[int]) -> list[CruxRoom]:
    """Scan one window on its own; track what it found; open the rooms whose candidates pass the
    gate. (The live dialogue scans inside each window's digest, ``window_digest``; this call is for
    a window whose digest an outage put off, and for those a dead worker left unscanned.)

    An outage (ModelUnavailable) is raised with the window left unscanned and nothing written, for
    the caller to try it again once the model is back: staging counts windows in a row, so a
    window skipped for a passing outage could keep a room from opening."""
    debate = Debate.objects.get(pk=debate_id)
    messages = list(Message.objects.filter(id__in=message_ids).select_related("persona").order_by("turn"))
    candidates = list(DisagreementCandidate.objects.filter(debate=debate).select_related("room"))
    try:
        scan = _scan(debate, messages, candidates)
    except ModelUnavailable:
        raise
    except ModelError as exc:
        # Detection is an observer: a failed scan skips this window, the debate goes on.
        logger.warning("Disagreement detection skipped window %s of %s: %s", window, debate_id, exc)
        scan = None
    return detection_apply(debate=debate, window=window, message_ids=message_ids, scan=scan, candidates=candidates)


def window_digest(
    *,
    debate: Debate,
    window: int,
    window_messages: list[Message],
    messages: list[Message],
    names: dict[int, str],
    handles: dict[int, str] | None = None,
    before_write=None,
    record_with=None,
) -> DisagreementScan | None:
    """One call for a detection window: the ledger updates of its new ``messages`` (folded here,
    ledger.digest_fold) and the scan of the whole window (returned for ``detection_apply``; None
    when the call failed after its repair: the window is then skipped, the messages marked tried).

    An outage (ModelUnavailable) is raised with nothing written: the messages stay unledgered
    (folded later, as any put-off update) and the caller scans the window on its own."""
    candidates = list(DisagreementCandidate.objects.filter(debate=debate))
    known = KNOWN_DISPUTES_INPUT.format(known=_known(candidates, names))
    handles = handles if handles is not None else seat_handles(debate)
    content, tag = digest_input(
        debate=debate, messages=messages, before=window_messages, names=names, handles=handles, known=known
    )
    prompt = Prompt(
        **side_work_prompt(f"{LEDGER_KEEPER}\n\n{DISAGREEMENT_DETECTOR}", debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=DIGEST_TOKENS_PER_MESSAGE * len(messages) + 500,
        temperature=0.2,
    )
    digest = gateway.extract_or_skip(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=WindowDigest,
        tag=replace(tag, phase="digest", items=tuple(str(c.id) for c in candidates)),
        what=f"Digest of detection window {window} of debate {debate.id}",
        skip_outages=False,
        record_with=record_with,
    )
    if before_write is not None:
        before_write()
    if messages:
        digest_fold(messages=messages, digest=digest, names=names, handles=handles)
    return DisagreementScan(disagreements=digest.disagreements) if digest is not None else None


def detection_apply(
    *,
    debate: Debate,
    window: int,
    message_ids: list[int],
    scan: DisagreementScan | None,
    candidates: list[DisagreementCandidate] | None = None,
) -> list[CruxRoom]:
    """Track what one window's scan found (None: the scan failed, the window is skipped) and open
    the rooms whose candidates pass the gate (crux/staging.py)."""
    debate_id = debate.id
    if scan is None:
        _window_done(debate_id, window)
        return []
    if candidates is None:
        candidates = list(DisagreementCandidate.objects.filter(debate=debate).select_related("room"))
    # The pair is named by the ids the scan was shown; a dispute with anyone else in it is dropped.
    participants = Participants.of(
        debate.participants.order_by("seat").values_list("persona_id", "persona__persona_id", "persona__name")
    )
    findings = []
    for found in scan.disagreements:
        what = f"Detection window {window} of {debate_id}"
        a, b = participants.key(found.persona_a, what=what), participants.key(found.persona_b, what=what)
        if a is None or b is None or a == b:
            continue
        findings.append(
            staging.Finding(
                pair=staging.pair_of(a, b),
                dispute=found.dispute.strip(),
                confidence=found.confidence,
                known_id=found.known_id,
            )
        )

    tracked = [_tracked(c) for c in candidates]
    created = staging.observe(tracked, window=window, findings=findings, message_ids=message_ids)
    rows = {c.id: c for c in candidates}
    opened = []
    with transaction.atomic():
        _window_done(debate_id, window)
        for item in tracked:
            row = rows[item.id]
            row.consecutive_windows, row.seen_count, row.last_window = (
                item.consecutive_windows,
                item.seen_count,
                item.last_window,
            )
            row.confidence, row.source_message_ids = item.confidence, item.source_message_ids
            row.save(
                update_fields=["consecutive_windows", "seen_count", "last_window", "confidence", "source_message_ids"]
            )
        for item in created:
            row = DisagreementCandidate.objects.create(
                debate=debate,
                persona_a_id=item.pair[0],
                persona_b_id=item.pair[1],
                dispute=item.dispute,
                consecutive_windows=item.consecutive_windows,
                seen_count=item.seen_count,
                last_window=item.last_window,
                confidence=item.confidence,
                source_message_ids=item.source_message_ids,
            )
            item.id = row.id
            rows[row.id] = row
        # A claim nobody has raised for three windows, and that never reached a room, is dropped.
        DisagreementCandidate.objects.filter(
            debate=debate,
            status=DisagreementCandidate.Status.ACTIVE,
            room__isnull=True,
            consecutive_windows=0,
            last_window__lte=window - 3,
        ).update(status=DisagreementCandidate.Status.ABANDONED)
        now = timezone.now()
        # The debate's rooms in one query (a handful), not one per candidate: their questions with
        # their candidates' vectors, and when each pair last had a room (for the cooldown).
        model = embeddings.current_model()
        vectors = {item.id: item.vector for item in tracked + created}
        rooms, last_room_at = [], {}
        for pair_a, pair_b, created_at, question, candidate_id in CruxRoom.objects.filter(debate=debate).values_list(
            "persona_a_id", "persona_b_id", "created_at", "question", "candidate_id"
        ):
            rooms.append((question, vectors.get(candidate_id)))
            last_room_at[pair_a, pair_b] = max(created_at, last_room_at.get((pair_a, pair_b), created_at))
        for item in tracked + created:
            last_room = last_room_at.get(item.pair)
            if (
                staging.ready_to_open(
                    item,
                    now=now.timestamp(),
                    pair_last_room_at=last_room.timestamp() if last_room else None,
                    thresholds=thresholds(),
                )
                and not staging.waits_for_its_vector(item, rooms, thresholds=thresholds(), model=model)
                and not staging.covered(item.dispute, item.vector, rooms, model=model)
            ):
                opened.append(room_open(candidate=rows[item.id]))
                rooms.append((opened[-1].question, item.vector))
                last_room_at[item.pair] = opened[-1].created_at
    return opened
