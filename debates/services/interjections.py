"""The owner speaking into a running debate: a question, a piece of evidence or a challenge,
optionally addressed to one persona (``@Name``).

``interjection_post`` checks and writes it (the row and its interjection_posted event in one
transaction: persisted before it is pushed). The run loop reads what is waiting from the database at
its next turn boundary (``interjections_waiting``), so a debate run by another process (a worker,
``rundebate``) picks it up; the turn that takes it up records it in the answering persona's
position ledger and marks it answered (``interjection_take_up``, ``interjection_answered``).

The web form and ``manage.py interject`` both call ``interjection_post``; its ValidationError's
message is the one line either shows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import transaction

from debates import prompts as words
from debates.budget import Section
from debates.models import Debate, Interjection, Message
from debates.payloads import InterjectionAnswered, InterjectionPosted
from debates.services.events import event_append
from projects.models import Document

MAX_INTERJECTION_LENGTH = 1000
MAX_LINK_LENGTH = 500
# Control characters other than newline and tab never reach a prompt or a page.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ADDRESS = re.compile(r"^\s*@(\S+(?:\s+\S+){0,3}?)[,:]\s*", re.UNICODE)

# What each kind asks of the persona who takes it up (the turn's prompt shows it).
ASKS = {
    Interjection.Kind.QUESTION: words.ASK_QUESTION,
    Interjection.Kind.EVIDENCE: words.ASK_EVIDENCE,
    Interjection.Kind.CHALLENGE: words.ASK_CHALLENGE,
}


def _clean(text: str) -> str:
    text = _CONTROL.sub("", (text or "").replace("\r\n", "\n"))
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


def _addressee(debate: Debate, to_name: str, text: str):
    """The persona ``to_name`` names (``@Name`` at the start of the text too), by full name, without a
    leading "The", or by first name; None when nobody is named. Unknown names are refused."""
    participants = list(debate.participants.select_related("persona").order_by("seat"))
    name = (to_name or "").strip().lstrip("@").strip()
    if not name:
        return None, text

    def matches(persona) -> bool:
        wanted = name.casefold()
        full = persona.name.casefold()
        bare = re.sub(r"^the\s+", "", full)
        return wanted in (full, bare, full.split()[0], persona.persona_id.casefold())

    found = [p.persona for p in participants if matches(p.persona)]
    if len(found) != 1:
        names = ", ".join(p.persona.name for p in participants)
        raise ValidationError(f"No one in this debate is called {name!r}: address one of {names}.")
    return found[0], text


def _split_address(debate: Debate, text: str) -> tuple[str, str]:
    """``@Name, text`` or ``@Name: text``: the name (when it is a participant's) and the rest."""
    match = _ADDRESS.match(text)
    if match is None:
        return "", text
    try:
        persona, _ = _addressee(debate, match.group(1), text)
    except ValidationError:
        return "", text
    return persona.name, text[match.end() :]


@dataclass(frozen=True)
class InterjectionDraft:
    """What the owner typed, as the form and the command line hand it over."""

    text: str
    kind: str = Interjection.Kind.QUESTION
    to_name: str = ""
    link: str = ""
    document_id: int | None = None


def interjection_check(*, debate: Debate, draft: InterjectionDraft):
    """Validate a draft against its debate: (clean text, kind, addressee or None, link, document or None).
    ValidationError with one sentence for anything wrong."""
    if debate.status in Debate.FINISHED:
        raise ValidationError("This debate has finished; it takes no more interjections.")
    if draft.kind not in Interjection.Kind.values:
        raise ValidationError(f"An interjection is a question, evidence or a challenge, not {draft.kind!r}.")
    text = _clean(draft.text)
    to_name = draft.to_name
    if not to_name:
        to_name, text = _split_address(debate, text)
    if not text:
        raise ValidationError("Type what you want to say to the debate.")
    if len(text) > MAX_INTERJECTION_LENGTH:
        raise ValidationError(f"Keep an interjection to {MAX_INTERJECTION_LENGTH} characters or fewer.")
    persona, text = _addressee(debate, to_name, text)
    link = (draft.link or "").strip()
    if link:
        if len(link) > MAX_LINK_LENGTH:
            raise ValidationError(f"Keep the link to {MAX_LINK_LENGTH} characters or fewer.")
        try:
            URLValidator(schemes=["http", "https"])(link)
        except ValidationError:
            raise ValidationError("The link must be a web address starting with http:// or https://.") from None
    document = None
    if draft.document_id is not None:
        document = Document.objects.filter(
            pk=draft.document_id, project__owner_id=debate.owner_id, status=Document.Status.READY
        ).first()
        if document is None or debate.owner_id is None:
            raise ValidationError("That document is not one of your projects' documents.")
    if (link or document) and draft.kind != Interjection.Kind.EVIDENCE:
        raise ValidationError("A link or a document goes with evidence: choose the kind 'evidence'.")
    return text, draft.kind, persona, link, document


def interjection_post(*, debate: Debate, draft: InterjectionDraft) -> Interjection:
    """Check, write and announce the owner's interjection. The run takes it up at its next turn."""
    text, kind, persona, link, document = interjection_check(debate=debate, draft=draft)
    with transaction.atomic():
        # Read the status again under the row lock: a debate that finished meanwhile refuses.
        status = Debate.objects.select_for_update().values_list("status", flat=True).get(pk=debate.pk)
        if status in Debate.FINISHED:
            raise ValidationError("This debate has finished; it takes no more interjections.")
        interjection = Interjection.objects.create(
            debate=debate,
            kind=kind,
            text=text,
            link=link,
            document=document,
            document_title=document.title if document else "",
            to_persona=persona,
        )
        event = event_append(
            debate_id=debate.id,
            payload=InterjectionPosted(
                interjection_id=interjection.id,
                kind=kind,
                text=text,
                link=link,
                document_title=interjection.document_title,
                to_persona_id=persona.id if persona else None,
                to_name=persona.name if persona else "",
            ),
        )
        Interjection.objects.filter(pk=interjection.pk).update(seq=event.seq)
        interjection.seq = event.seq
    return interjection


# ── what the run reads and writes ─────────────────────────────────────────────────────────────


def interjections_waiting(*, debate: Debate) -> list[Interjection]:
    """The interjections no turn has taken up yet, oldest first (one query)."""
    return list(
        Interjection.objects.filter(debate=debate, read_at_turn__isnull=True)
        .select_related("to_persona", "document")
        .order_by("seq", "id")
    )


DOCUMENT_CHARS = 1500  # of a document brought as evidence, what the prompt shows


def interjection_prompt(interjection: Interjection) -> str:
    """The section of the answering turn's prompt that shows the interjection as something to answer."""
    lines = [Section(words.INTERJECTION_TITLE, 0).header, ASKS[interjection.kind], f'"{interjection.text}"']
    if interjection.link:
        lines.append(words.INTERJECTION_SOURCE.format(link=interjection.link))
    if interjection.document is not None:
        excerpt = " ".join(interjection.document.text.split())[:DOCUMENT_CHARS]
        lines.append(words.INTERJECTION_DOCUMENT.format(title=repr(interjection.document.title), excerpt=excerpt))
    elif interjection.document_title:
        lines.append(words.INTERJECTION_DOCUMENT_TITLE.format(title=repr(interjection.document_title)))
    return "\n".join(lines)


def interjection_read_at(*, debate: Debate, turn: int) -> Interjection | None:
    """The interjection main-channel turn ``turn`` took up (a cut-off turn said again answers it)."""
    return (
        Interjection.objects.filter(debate=debate, read_at_turn=turn)
        .select_related("to_persona", "document")
        .order_by("seq")
        .first()
    )


def interjection_mark_read(*, interjection: Interjection, turn: int) -> None:
    """Taken up by main-channel turn ``turn``: no later turn takes it up again."""
    Interjection.objects.filter(pk=interjection.pk).update(read_at_turn=turn)
    interjection.read_at_turn = turn


def interjection_release(*, interjection: Interjection) -> None:
    """The turn that took it up said nothing usable: the next turn takes it up instead."""
    Interjection.objects.filter(pk=interjection.pk).update(read_at_turn=None)
    interjection.read_at_turn = None


def interjection_answered(*, interjection: Interjection, message: Message | None, persona) -> None:
    """The answer is written: the interjection points at it (an event, so the page links the two)."""
    with transaction.atomic():
        if message is not None:
            Interjection.objects.filter(pk=interjection.pk).update(answer=message)
        event_append(
            debate_id=interjection.debate_id,
            payload=InterjectionAnswered(
                interjection_id=interjection.id,
                message_id=message.id if message is not None else None,
                persona_id=persona.id,
                persona_name=persona.name,
            ),
        )


def interjections_guidance(interjections: list[Interjection]) -> str:
    """What a round's prompts show of the owner's interjections: the guidance the round follows."""
    if not interjections:
        return ""
    parts = []
    for interjection in interjections:
        section = interjection_prompt(interjection)
        if interjection.to_persona is not None:
            section += "\n" + words.INTERJECTION_ADDRESSED.format(name=interjection.to_persona.name)
        parts.append(section)
    return "\n\n".join(parts)


def interjections_answer_in(
    *, interjections: list[Interjection], message: Message | None, persona, default: bool, last_word: bool = False
):
    """``persona``'s turn of the round answers those of ``interjections`` addressed to them (and the
    unaddressed ones when ``default``: theirs is the round's first answer; and every one still
    unanswered when ``last_word``: a closing turn, such as a synthesis, nobody speaks after)."""
    if message is None:
        return
    for interjection in interjections:
        if interjection.answer_id is not None:
            continue
        mine = last_word or interjection.to_persona_id == persona.id or (interjection.to_persona_id is None and default)
        if mine:
            interjection_answered(interjection=interjection, message=message, persona=persona)
            interjection.answer = message
