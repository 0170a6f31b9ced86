"""Keeping the blackboard current: every few messages one cheap extraction (a digest) updates the
speakers' position ledgers, one update per message; after every aspect a round record; when
enough happened, reflections.

All of it runs beside the debate, never in front of the next speaker, and all of it treats
model output as untrusted: a malformed extraction (after the gateway's one repair) skips the
update and is logged; the ledger keeps its last good state and the debate goes on.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.db import transaction
from django.db.models import F

from debates import prompts as words
from debates.blackboard import conversation, summaries, updates
from debates.blackboard.models import BlackboardNotes, PositionState, Reflection, RoundRecord
from debates.blackboard.schemas import LedgerDigest, PositionUpdate, ReflectionDraft, RoundRecordDraft
from debates.models import Debate, Event, Message
from debates.payloads import EventKind, LedgerUpdated
from debates.services.context import side_work_prompt
from debates.services.events import event_append
from debates.services.transcripts import participant_lines, seat_handles, seated_lines, transcript_of
from gateways.llm import gateway
from gateways.llm.prompt_lines import item_line
from gateways.llm.references import Participants, item_id
from gateways.llm.types import CallTag, ModelUnavailable, Prompt, Role

logger = logging.getLogger(__name__)

RECENT_BEFORE = 3  # messages before the ones folded that the ledger keeper reads
DIGEST_TOKENS_PER_MESSAGE = 400


def _participants(debate: Debate) -> dict[int, str]:
    return dict(debate.participants.order_by("seat").values_list("persona_id", "persona__name"))


def seated(names: dict[int, str], handles: dict[int, str]) -> Participants:
    """Who takes part, as a call's answer may name them back: persona pk, persona id, name."""
    return Participants.of((pk, handles[pk], name) for pk, name in names.items())


def _debate_seated(debate: Debate) -> Participants:
    rows = debate.participants.order_by("seat").values_list("persona_id", "persona__persona_id", "persona__name")
    return Participants.of(rows)


def proposal_key(proposal: dict) -> str:
    """The id a proposal's item line shows (``[X3] Name: proposal``), the one a reaction cites."""
    return f"X{proposal['id']}"


def proposal_lines(proposals: list[dict]) -> str:
    """The open proposals as item lines, ``[X3] Name: proposal``, the last few."""
    open_ones = [p for p in proposals if p.get("status", conversation.ACTIVE) == conversation.ACTIVE]
    return "\n".join(item_line(proposal_key(p), f"{p['by']}: {p['proposal']}") for p in open_ones[-3:])


def _state_dict(state: PositionState) -> dict:
    return {field: getattr(state, field) for field in updates.empty_state()}


def _ledger_payload(
    state: PositionState, names: dict[int, str], message_id: int | None = None, side_said: str = ""
) -> LedgerUpdated:
    def named(items):
        return [{**item, "name": names.get(item["with"], "?")} for item in items]

    return LedgerUpdated(
        persona_id=state.persona_id,
        name=names.get(state.persona_id, ""),
        stance=state.overall_stance,
        side=state.topic_side,
        concessions=state.concessions,
        shifts=state.shifts,
        agreements=named(state.agreements),
        disagreements=named(state.disagreements),
        unanswered=state.unanswered_challenges[-4:],
        message_id=message_id,
        side_said=side_said,
    )


def digest_section(*, debate: Debate, messages: list[Message], names: dict[int, str], handles: dict[int, str]) -> str:
    """The ledger's part of a digest's prompt: the question, the participants (persona pk -> name
    and -> persona id, in seat order: item lines), and for each speaker of ``messages`` their
    position state, their unanswered challenges and the open proposals."""
    speakers = list(dict.fromkeys(message.persona for message in messages))
    states = {
        state.persona_id: state
        for state in PositionState.objects.filter(debate=debate, persona_id__in=[s.id for s in speakers])
    }
    blocks = []
    for speaker in speakers:
        state = states.get(speaker.id) or PositionState(debate=debate, persona=speaker)
        blocks.append(
            words.DIGEST_STATE.format(
                name=speaker.name,
                state=json.dumps(_state_shown(state), ensure_ascii=False),
                challenges=json.dumps(state.unanswered_challenges, ensure_ascii=False),
            )
        )
    proposals = BlackboardNotes.objects.filter(debate=debate).values_list("proposals", flat=True).first() or []
    open_proposals = proposal_lines(proposals) or words.DIGEST_NO_PROPOSALS
    frame = words.DIGEST_FRAME.format(topic=debate.topic, participants=seated_lines(names, handles))
    return "\n\n".join([frame, *blocks, words.DIGEST_PROPOSALS.format(proposals=open_proposals)])


# The ledger's own bookkeeping in a position state: the round it last changed, and where in the
# event log each held statement was said (updates.said_later).
BOOKKEEPING = frozenset({"last_updated_round", "topic_side_seq", "overall_stance_seq"})
ASPECT_BOOKKEEPING = frozenset({"position_seq"})


def _state_shown(state: PositionState) -> dict:
    """A speaker's position state as a digest reads it: what it holds, without the empty fields
    (an unknown side, an aspect with nothing on it) or the ledger's own bookkeeping: on every
    digest they were paid for and said nothing."""

    def held(value):
        if isinstance(value, dict):
            value = {key: kept for key, item in value.items() if (kept := held(item)) not in ("", [], {}, None)}
        return value

    def without(entry: dict, bookkeeping: frozenset) -> dict:
        return {key: value for key, value in entry.items() if key not in bookkeeping}

    shown = without(held(_state_dict(state)), BOOKKEEPING)
    if "aspect_positions" in shown:
        shown["aspect_positions"] = {
            name: without(aspect, ASPECT_BOOKKEEPING) for name, aspect in shown["aspect_positions"].items()
        }
    return shown


def digest_transcript(*, messages: list[Message], before: list[Message]) -> tuple[str, str]:
    """The messages a digest reads, one transcript line each (``before`` first, as context), and
    the instruction naming the turns to fold."""
    shown = sorted({m.turn: m for m in [*before, *messages]}.values(), key=lambda m: m.turn)  # one channel
    asked = ", ".join(f"[turn {m.turn}] ({m.persona.name})" for m in messages)
    return transcript_of(shown), words.DIGEST_ASKED.format(asked=asked)


def digest_input(
    *,
    debate: Debate,
    messages: list[Message],
    before: list[Message],
    names: dict[int, str],
    handles: dict[int, str],
    known: str = "",
) -> tuple[str, CallTag]:
    """A digest's user message (the ledger's part, the turns asked for, ``known``: the disputes a
    window's scan knows, the messages) and its call's tag: the turns to fold, the participants
    (ids only)."""
    lines, asked = digest_transcript(messages=messages, before=before)
    parts = [digest_section(debate=debate, messages=messages, names=names, handles=handles), asked, known]
    parts.append(words.DIGEST_MESSAGES.format(transcript=lines))
    tag = CallTag(
        debate_id=debate.id,
        phase="ledger",
        room=messages[0].room_id,
        turns=tuple(m.turn for m in messages),
        participants=tuple(handles[pk] for pk in names),
    )
    return "\n\n".join(part for part in parts if part), tag


def digest_window(messages: list[Message]) -> dict[int, int]:
    """turn -> its speaker's persona pk, for each message a digest folds."""
    return {message.turn: message.persona_id for message in messages}


def ledger_digest(
    *,
    messages: list[Message],
    names: dict[int, str] | None = None,
    handles: dict[int, str] | None = None,
    before: list[Message] | None = None,
    before_write=None,
    record_with=None,
    put_off_outages: bool = True,
) -> bool:
    """Fold a stretch of one channel's messages (turn order, debate and persona attached) into
    their speakers' ledgers with one call. Returns False when it was skipped.

    ``before``: the messages of the channel before them, when the caller holds them (the last
    RECENT_BEFORE are read otherwise). ``before_write``: waits for the messages' rows, when they
    may still be being written; the call starts at once. ``record_with``: where the call's
    ModelCall row is written (gateway.stream). ``put_off_outages=False``: an outage is raised
    (ModelUnavailable) instead of leaving the messages unledgered, for a caller that must have
    them now and waits the outage out."""
    if not messages:
        return False
    debate = messages[0].debate
    names = names if names is not None else _participants(debate)
    handles = handles if handles is not None else seat_handles(debate)
    if before is None:
        before = _read_before(messages[0])
    content, tag = digest_input(
        debate=debate, messages=messages, before=list(before)[-RECENT_BEFORE:], names=names, handles=handles
    )
    prompt = Prompt(
        **side_work_prompt(words.LEDGER_KEEPER, debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=DIGEST_TOKENS_PER_MESSAGE * len(messages),
        temperature=0.2,
    )
    turns = f"{messages[0].turn}-{messages[-1].turn}"
    try:
        digest = gateway.extract_or_skip(
            role=Role.EXTRACTION,
            prompt=prompt,
            schema=LedgerDigest,
            tag=tag,
            what=f"Ledger digest of turns {turns} of debate {debate.id}",
            skip_outages=False,
            record_with=record_with,
        )
    except ModelUnavailable as exc:
        # An outage passes: left unledgered, they are folded before the closings (or by the run
        # that follows a wait or a dead worker), in turn order.
        if not put_off_outages:
            raise
        logger.warning("Ledger digest of turns %s put off (the model is unavailable): %s", turns, exc)
        return False
    if before_write is not None:
        before_write()
    digest_fold(messages=messages, digest=digest, names=names, handles=handles)
    return digest is not None


def _read_before(message: Message) -> list[Message]:
    before = Message.objects.filter(
        debate=message.debate_id, room=message.room_id, status=Message.Status.COMPLETE, turn__lt=message.turn
    )
    return list(reversed(before.select_related("persona").order_by("-turn")[:RECENT_BEFORE]))


def digest_fold(
    *, messages: list[Message], digest: LedgerDigest | None, names: dict[int, str], handles: dict[int, str]
) -> None:
    """Each message's update (checked against the window: updates.updates_by_turn) folded into the
    ledger, in turn order. A message the digest gave no usable update for changed nothing the
    model saw: it is folded as an empty update (its counters, and the proposals its own words
    make, still count). ``digest`` None: the call failed after its repair, every message is
    marked tried (its citations kept) and the debate goes on. ``handles``: persona pk -> persona
    id, the ids the digest was shown and answers with."""
    participants = seated(names, handles)
    if digest is None:
        for message in messages:
            ledger_fold(message=message, update=None, participants=participants)
        return
    found = updates.updates_by_turn(digest.updates, digest_window(messages), participants)
    finished = _finished_at(messages)
    for message in messages:
        update = found[message.turn] or PositionUpdate()
        ledger_fold(message=message, update=update, participants=participants, said_at=finished.get(message.id))


def _finished_at(messages: list[Message]) -> dict[int, int]:
    """Where each message finished in its debate's log (its message_completed event's seq): the
    order they were said in, the main channel's and the crux rooms' together."""
    completed = Event.objects.filter(
        debate_id=messages[0].debate_id,
        kind=EventKind.MESSAGE_COMPLETED,
        payload__message_id__in=[message.id for message in messages],
    )
    return dict(completed.values_list("payload__message_id", "seq"))


def ledger_fold(
    *, message: Message, update: PositionUpdate | None, participants: Participants, said_at: int | None = None
) -> bool:
    """Fold one message's update into its speaker's ledger (None: marked tried, its citations kept).
    said_at: where the message finished in the log (_finished_at), so that a side it gives does
    not replace one its speaker said after it (updates.said_later); None if not known."""
    debate, speaker = message.debate, message.persona
    state, _ = PositionState.objects.get_or_create(debate=debate, persona=speaker)
    if update is None:
        with transaction.atomic():
            _record_citations(message, state)
            Message.objects.filter(pk=message.pk).update(ledgered=True)  # tried; it is not tried again
        return False

    names = participants.names
    round_number = (message.aspect_index or 0) + 1
    with transaction.atomic():
        state = PositionState.objects.select_for_update().get(pk=state.pk)
        change = updates.apply_update(
            state=_state_dict(state),
            update=update,
            speaker_id=speaker.id,
            participants=participants,
            aspect_index=message.aspect_index,
            round_number=round_number,
            said_at=said_at,
        )
        for field, value in change.speaker.items():
            setattr(state, field, value)
        state.save()
        _record_citations(message, state)
        touched = [state]
        for target_id, challenges in change.challenges_for.items():
            target, _ = PositionState.objects.select_for_update().get_or_create(debate=debate, persona_id=target_id)
            for field, value in updates.add_challenges(_state_dict(target), challenges, message.aspect_index).items():
                setattr(target, field, value)
            target.save()
            touched.append(target)
        Message.objects.filter(pk=message.pk).update(ledgered=True, importance=update.importance)
        _notes_fold(debate, message, change, update, names)
        for touched_state in touched:
            # What the message itself said goes with its speaker's update (the stance chart places
            # it where it was said); the current side may be a newer statement's.
            said = (update.topic_side or "") if touched_state is state else ""
            event_append(debate_id=debate.id, payload=_ledger_payload(touched_state, names, message.id, said))
    return True


def _notes_fold(
    debate: Debate, message: Message, change: updates.LedgerChange, update: PositionUpdate, names: dict[int, str]
) -> None:
    """Count the update into the debate's notes, inside the caller's transaction. Most updates
    only add to the counters: one UPDATE does it (it locks the row as the read below would); a
    main-channel message that may propose, react or accept (in its words, or as the update reads
    it) is read under the lock and folded into the proposals (conversation.py), and the panel is
    told. A reaction is tied to the proposal whose id it cites, checked against the proposals
    held (an id that is none of theirs is dropped and logged)."""
    speaker_name = message.persona.name
    in_main = message.room_id is None
    reacted = update.proposal_reaction
    counters_only = not (in_main and (reacted is not None or conversation.may_touch_proposals(message.text)))
    if counters_only and BlackboardNotes.objects.filter(debate=debate).update(
        epistemic_score=F("epistemic_score") + change.epistemic_score, messages_ledgered=F("messages_ledgered") + 1
    ):
        return
    notes, _ = BlackboardNotes.objects.select_for_update().get_or_create(debate=debate)
    notes.epistemic_score += change.epistemic_score
    notes.messages_ledgered += 1
    before = (notes.proposals, notes.decisions)
    if in_main:
        reacting_to, read_as = reaction_cited(reacted, notes.proposals, message)
        notes.proposals, decided = conversation.proposals_fold(
            notes.proposals,
            speaker=speaker_name,
            text=message.text,
            turn=message.turn,
            participants=list(names.values()),
            reacting_to=reacting_to,
            read_as=read_as,
        )
        notes.decisions = [*notes.decisions, *(d for d in decided if d not in notes.decisions)]
    notes.save()
    if (notes.proposals, notes.decisions) != before:
        event_append(debate_id=debate.id, payload=summaries.where_we_are(notes))


READINGS = {
    "supports": conversation.SUPPORT,
    "opposes": conversation.OPPOSE,
    "amends": conversation.UNDETERMINED,  # accepted with a change: not the proposal as made
    "undecided": conversation.UNDETERMINED,
}


def reaction_cited(reacted, proposals: list[dict], message: Message) -> tuple[int | None, str | None]:
    """The proposal a reaction cites (its number, if it is one held) and how it was read. A
    proposal is cited by the id of its item line (``X3``), or, when it was made in a message of
    the same digest (no line showed it yet), by that message's ``[turn N]``."""
    if reacted is None:
        return None, None
    shown = {proposal_key(p): p["id"] for p in proposals}
    shown |= {f"turn {p['turn']}": p["id"] for p in proposals if p.get("turn") is not None}
    found = item_id(reacted.proposal, shown, what=f"The update of turn {message.turn} (a proposal reaction)")
    return (shown[found], READINGS[reacted.reaction]) if found else (None, None)


def _record_citations(message: Message, state: PositionState) -> None:
    """The passages of its own corpus the message cited go into the speaker's evidence, whatever
    the extraction made of it (a citation is a fact of the turn, not a model's reading of it).
    Runs inside the caller's transaction."""
    if not message.citations:
        return
    state = PositionState.objects.select_for_update().get(pk=state.pk)
    evidence = [updates.citation_evidence(citation) for citation in message.citations]
    state.aspect_positions = updates.add_evidence(_state_dict(state), evidence, message.aspect_index)[
        "aspect_positions"
    ]
    state.save(update_fields=["aspect_positions", "updated_at"])


def reflection_due(*, debate_id) -> bool:
    """Enough epistemic events since the last reflection (new disagreements x3, concessions x4, shifts x5)."""
    return BlackboardNotes.objects.filter(
        debate_id=debate_id, epistemic_score__gte=settings.REFLECTION_THRESHOLD
    ).exists()


def round_record_extract(*, debate: Debate, aspect_index: int) -> RoundRecord | None:
    messages = (
        Message.objects.filter(
            debate=debate, room__isnull=True, aspect_index=aspect_index, status=Message.Status.COMPLETE
        )
        .select_related("persona")
        .order_by("turn")
    )
    transcript = transcript_of(messages)
    if not transcript:
        return None
    aspect = debate.aspects[aspect_index]
    participants = _debate_seated(debate)
    people = seated_lines(participants.names, {key: participants.handle(key) for key in participants.names})
    prompt = Prompt(
        **side_work_prompt(words.ROUND_RECORDER, debate),
        messages=[
            {
                "role": "user",
                "content": words.ROUND_INPUT.format(
                    label=aspect["label"],
                    description=aspect["description"],
                    participants=people,
                    transcript=transcript,
                ),
            }
        ],
        max_tokens=900,
        temperature=0.2,
    )
    draft = gateway.extract_or_skip(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=RoundRecordDraft,
        tag=CallTag(
            debate_id=debate.id,
            phase="round_record",
            round=aspect_index + 1,
            aspect=aspect_index,
            turns=tuple(m.turn for m in messages),
            participants=tuple(handle for _, handle, _ in participants.seats),
        ),
        what=f"Round record {aspect_index} of {debate.id}",
    )
    if draft is None:
        return None
    takes = {}
    for take in draft.takes:
        key = participants.key(take.persona, what=f"Round record {aspect_index + 1}'s take")
        if key is None or str(key) in takes:
            continue
        engaged = participants.name(take.engaged, what="A take's engaged") if take.engaged else None
        takes[str(key)] = {
            "name": participants.names[key],
            **take.model_dump(exclude={"persona"}),
            "engaged": engaged or "",
        }
    with transaction.atomic():
        record, _ = RoundRecord.objects.update_or_create(
            debate=debate,
            round_number=aspect_index + 1,
            defaults={
                "aspect_index": aspect_index,
                "takes": takes,
                "summary": draft.summary,
                "new_disagreements": draft.new_disagreements,
                "shifts": draft.shifts,
            },
        )
        notes, _ = BlackboardNotes.objects.select_for_update().get_or_create(debate=debate)
        notes.rolling_summary = (
            notes.rolling_summary + f"\nRound {aspect_index + 1} ({aspect['label']}): {draft.summary}"
        ).strip()[-2000:]
        notes.save(update_fields=["rolling_summary"])
    return record


def reflections_generate(*, debate: Debate, round_number: int) -> list[Reflection]:
    names = _participants(debate)
    people = [p.persona for p in debate.participants.select_related("persona").order_by("seat")]
    ledger = "\n".join(
        words.REFLECTION_POSITION.format(
            name=names.get(s.persona_id),
            stance=s.overall_stance,
            conceded="; ".join(s.concessions) or "-",
            shifted="; ".join(s.shifts) or "-",
        )
        for s in PositionState.objects.filter(debate=debate)
    )
    records = "\n".join(r.summary for r in RoundRecord.objects.filter(debate=debate).order_by("-round_number")[:2])
    claims = "\n".join(f"- {c.dispute} [{c.status}]" for c in debate.candidates.exclude(status="abandoned")[:5])
    recent = Message.objects.filter(debate=debate, status=Message.Status.COMPLETE).order_by("-created_at")[:6]
    content = words.REFLECTION_INPUT.format(
        topic=debate.topic,
        participants=participant_lines(people),
        positions=ledger,
        rounds=records or "-",
        contested=claims or "-",
    )
    prompt = Prompt(
        **side_work_prompt(words.REFLECTOR, debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=700,
        temperature=0.3,
    )
    with transaction.atomic():
        # Reset first, under the row lock, so two triggers never reflect on the same events twice.
        notes = BlackboardNotes.objects.select_for_update().get(debate=debate)
        if notes.epistemic_score < settings.REFLECTION_THRESHOLD:
            return []
        notes.epistemic_score = 0
        notes.save(update_fields=["epistemic_score"])
    draft = gateway.extract_or_skip(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=ReflectionDraft,
        tag=CallTag(
            debate_id=debate.id,
            phase="reflection",
            round=round_number,
            participants=tuple(p.persona_id for p in people),
        ),
        what=f"Reflection for {debate.id}",
    )
    if draft is None:
        return []
    participants = Participants.of((p.pk, p.persona_id, p.name) for p in people)
    source = [m.id for m in recent]
    return [
        Reflection.objects.create(
            debate=debate,
            content=item.content,
            kind=item.type,
            importance=item.importance,
            about_persona_ids=[
                key
                for named in item.about
                if (key := participants.key(named, what=f"A reflection of {debate.id}")) is not None
            ],
            source_message_ids=source,
            round_number=round_number,
        )
        for item in draft.reflections
    ]
