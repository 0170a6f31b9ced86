"""The rolling summary of the main channel, every SUMMARY_EVERY messages (seeds/
conversation-memory.md), and the "Where we are" state the page and the exports show.

A summary is rolling: the call reads the previous summary and the messages since, so the newest
one speaks for the whole debate so far and a persona's context needs only that one. It runs on
the notes lane, beside the debate; a failed call (after the gateway's one repair) leaves the
messages for the next one, which then covers them too.
"""

from __future__ import annotations

from django.db import transaction

from debates import prompts as words
from debates.blackboard.ledger_text import usable
from debates.blackboard.models import BlackboardNotes
from debates.blackboard.schemas import RollingSummaryDraft
from debates.models import Debate, Message
from debates.payloads import ConversationNoted
from debates.services.context import side_work_prompt
from debates.services.events import event_append
from debates.services.transcripts import transcript_of
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role

SUMMARY_EVERY = 12  # main-channel messages per summary
SUMMARIES_SHOWN = 3  # the latest few go to the page; the context reads the newest


def summary_due(messages_said: int) -> bool:
    """Whether the main channel's message count has just reached the next summary."""
    return messages_said > 0 and messages_said % SUMMARY_EVERY == 0


def where_we_are(notes: BlackboardNotes) -> ConversationNoted:
    return ConversationNoted(
        summaries=notes.summaries[-SUMMARIES_SHOWN:], proposals=notes.proposals, decisions=notes.decisions
    )


def latest_summary(notes: BlackboardNotes | None) -> str:
    return notes.summaries[-1]["text"] if notes is not None and notes.summaries else ""


def rolling_summary_write(*, debate: Debate, up_to_turn: int) -> dict | None:
    """Summarise the main channel up to ``up_to_turn`` from where the last summary stopped. Returns
    the summary written, or None (nothing new, or the call gave nothing usable)."""
    notes, _ = BlackboardNotes.objects.get_or_create(debate=debate)
    since = notes.summaries[-1]["to_turn"] if notes.summaries else 0
    messages = list(
        Message.objects.filter(
            debate=debate, room__isnull=True, status=Message.Status.COMPLETE, turn__gt=since, turn__lte=up_to_turn
        )
        .select_related("persona")
        .order_by("turn")
    )
    if not messages:
        return None
    first, last = messages[0].turn, messages[-1].turn
    content = words.SUMMARY_INPUT.format(
        topic=debate.topic,
        summary=latest_summary(notes) or words.NO_SUMMARY_YET,
        first=first,
        last=last,
        transcript=transcript_of(messages),
    )
    prompt = Prompt(
        **side_work_prompt(words.SUMMARIZER, debate),
        messages=[{"role": "user", "content": content}],
        max_tokens=400,
        temperature=0.2,
    )
    draft = gateway.extract_or_skip(
        role=Role.EXTRACTION,
        prompt=prompt,
        schema=RollingSummaryDraft,
        tag=CallTag(debate_id=debate.id, phase="rolling_summary", turns=tuple(m.turn for m in messages)),
        what=f"Rolling summary of turns {first}-{last} of debate {debate.id}",
    )
    text = usable(draft.summary) if draft is not None else None
    if text is None:
        return None
    summary = {"from_turn": first, "to_turn": last, "text": text}
    with transaction.atomic():
        notes = BlackboardNotes.objects.select_for_update().get(pk=notes.pk)
        if notes.summaries and notes.summaries[-1]["to_turn"] >= last:
            return None  # another run summarised these already
        notes.summaries = [*notes.summaries, summary]
        notes.save(update_fields=["summaries"])
        event_append(debate_id=debate.id, payload=where_we_are(notes))
    return summary
