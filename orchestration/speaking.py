"""One persona turn, main channel or crux room: prompt, stream, voice guard, persist."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from debates.models import Debate, Message
from debates.services.messages import message_begin, message_finish
from debates.turns import turn_kind
from faultline.llm import gateway
from faultline.llm.types import CallTag, Prompt, Role
from orchestration.citing import turn_citations
from orchestration.context import stable_prefix
from orchestration.lanes import RunCancelled
from orchestration.voice import (
    StreamingTurn,
    context_lines,
    find_forbidden,
    is_pass,
    remove_forbidden,
    shape_turn,
    strip_furniture,
    tidy,
)

NO_ANSWER = "(no answer)"


@dataclass(frozen=True)
class Speaker:
    persona: object  # personas.models.Persona
    seat: int

    @property
    def name(self) -> str:
        return self.persona.name


_prefixes: dict[tuple, str] = {}


def _system_prefix(debate: Debate, persona) -> str:
    # Built once per persona and debate: identical bytes every call is what makes it cacheable.
    key = (debate.id, persona.id, persona.updated_at)
    if key not in _prefixes:
        _prefixes[key] = stable_prefix(debate, persona)
    return _prefixes[key]


def speak(
    *,
    debate: Debate,
    speaker: Speaker,
    kind: str,
    turn: int,
    context: str,
    phase: str,
    room=None,
    aspect_index: int | None = None,
    interrupted: Message | None = None,
    allow_pass: bool = False,
    cancelled: threading.Event | None = None,
    role: Role = Role.PERSONA,
    system_prefix: str | None = None,
) -> Message | None:
    """Stream one turn to the page and persist it. Returns None when the persona passed.

    ``role`` picks the model (the Analyst/Critic mode's roles have their own); ``system_prefix``
    replaces the persona's contract where a mode gives the speaker a role of its own.

    If ``cancelled`` is set while it streams, generation stops and RunCancelled is raised: the
    unfinished message stays ``streaming`` for the next run to say again."""
    persona = speaker.persona
    forbidden = list(persona.forbidden_phrases or [])
    names = list(debate.participants.values_list("persona__name", flat=True))
    echoes = context_lines(context)
    row = turn_kind(kind)
    prompt = Prompt(
        system_prefix=system_prefix if system_prefix is not None else _system_prefix(debate, persona),
        messages=[{"role": "user", "content": context}],
        max_tokens=row.max_tokens,
    )
    stream = StreamingTurn(
        begin=lambda: message_begin(
            debate=debate,
            persona=persona,
            seat=speaker.seat,
            kind=kind,
            turn=turn,
            room=room,
            aspect_index=aspect_index,
        ),
        forbidden=forbidden,
        message=interrupted,
        sentence_limit=row.sentence_limit,
        cancelled=cancelled,
        names=names,
        echoes=echoes,
    )
    tag = CallTag(debate_id=debate.id, persona=persona.persona_id, phase=phase)
    limit = row.sentence_limit

    def spoken(reply) -> str:
        """What of a reply reaches the page: no name prefix, no prompt furniture, its kind's length."""
        return shape_turn(strip_furniture(tidy(reply.text, persona.name), names, echoes=echoes), limit)

    text = spoken(gateway.stream(role=role, prompt=prompt, on_text=stream, tag=tag))

    if find_forbidden(text, forbidden):
        stream.reset()
        retry = Prompt(
            system_prefix=prompt.system_prefix,
            system="Your last draft used a phrase you never use. Say it again in your own words, without: "
            + "; ".join(f'"{phrase}"' for phrase in find_forbidden(text, forbidden)),
            messages=prompt.messages,
            max_tokens=prompt.max_tokens,
        )
        text = spoken(gateway.stream(role=role, prompt=retry, on_text=stream, tag=tag))
        if find_forbidden(text, forbidden):
            text = remove_forbidden(text, forbidden)

    if cancelled is not None and cancelled.is_set():
        raise RunCancelled(f"debate {debate.id}: turn {turn} cut off, the run is over")
    if allow_pass and is_pass(text) and stream.message is None:
        return None
    text, citations = turn_citations(context=context, persona=persona, text=text)
    message = stream.ensure_message()
    message_finish(message=message, text=text or NO_ANSWER, citations=citations)
    return message
