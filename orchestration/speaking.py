"""One persona turn, main channel or crux room: prompt, stream, voice guard, persist."""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from debates.models import Debate, Message
from debates.services.messages import (
    message_begin,
    message_finish,
    message_say,
    message_text_save,
    message_withdraw,
    turn_request_announce,
)
from debates.turns import turn_kind
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role, text_blocks
from orchestration import prompts as words
from orchestration.citing import turn_citations
from orchestration.context import stable_prefix
from orchestration.lanes import RunCancelled
from orchestration.voice import (
    FLUSH_SECONDS,
    StreamingTurn,
    carrying_sentences,
    clean_forbidden,
    context_lines,
    end_at_whole_sentence,
    find_forbidden,
    is_pass,
    quoted,
    shape_turn,
    strip_furniture,
    tidy,
)
from personas.house import forbidden_phrases_of

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Speaker:
    persona: object  # personas.models.Persona
    seat: int

    @property
    def name(self) -> str:
        return self.persona.name


@dataclass(frozen=True)
class TurnRequest:
    """One turn a mode asks the run loop for: who speaks, what kind of turn, on what prompt, where.
    How it is streamed, written and resumed is the loop's (DebateRun.turn and friends).

    ``context``: the prompt's user message; the discussion's turns leave it empty and the mode's
    context hook builds it when the turn comes (it reads the ledger as it is then). ``turn``: the
    main-channel turn number, or None for the discussion's next one. ``role`` picks the model (the
    two-role modes' roles have their own); ``system_prefix`` replaces the persona's contract where
    a mode gives the speaker a role of its own. ``long_form``: a mode's long output (write), not a
    spoken turn; ``clean`` shapes its final text.

    What the turn's model call says of itself (its tag, gateways/llm/types.py: ids only) is read
    from the request: ``addressee_id`` (the persona id of whom it answers), ``round`` (default:
    the aspect's number), ``participants`` (the persona ids its prompt lists, in seat order),
    ``items`` (the ids of the item lines it is about: a crux room's dispute)."""

    speaker: Speaker
    kind: str
    phase: str  # the model call's phase tag
    context: str = ""
    turn: int | None = None
    room: object = None  # crux.models.CruxRoom, or None for the main channel
    aspect_index: int | None = None
    addressee: str = ""
    addressee_id: str = ""
    round: int | None = None
    participants: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    allow_pass: bool = False
    role: Role | str = Role.PERSONA  # a generic role, or a mode's own (its spec row registers it)
    system_prefix: str | None = None
    long_form: bool = False
    clean: Callable[[str], str] | None = None
    # Phrases no word of the turn may say besides its speaker's (the house's and its own, always):
    # the artifact's, which speaks for both roles, are both roles'.
    forbidden: tuple[str, ...] = ()
    # "1h" where the speaker's next turn may come more than five minutes later (a mode that waits
    # for its user between rounds), so the cached prefix outlives the wait (gateways/llm/types.py).
    cache_ttl: str = "5m"
    interjection: object = None  # debates.models.Interjection: the owner's, which this turn answers
    # The leading pieces of ``context`` that stay the same from this speaker's call to its next
    # (orchestration/context.py's TurnContext.lead): sent as blocks of their own, with cache
    # breakpoints after the first and the last, so the next call reads them from the cache.
    context_lead: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pipeline:
    """How the run loop writes main-channel turns beside the next one: ``persist`` takes a finished
    turn's rows to write while the caller goes on (the returned message is complete in memory,
    unsaved if nothing of it was shown while it streamed); ``settle`` waits for what was handed over
    before (a message shown while it streams starts only after its predecessor is written);
    ``record_with`` does the same for the calls' ModelCall rows (gateway.stream)."""

    persist: Callable[[Callable[[], None]], object]
    settle: Callable[[], None]
    record_with: Callable[[Callable[[], None]], object]


class ContextChanged(Exception):
    """A held reply was dropped: once what its request was sent beside was done, the turn's
    context was no longer the one the request carried (see HeldReply)."""


class HeldReply:
    """The on_text of a request sent before its context was sure: the run loop sends the first
    closing while the last detection window is still scanned (it may open a crux room whose card
    the closings should see). Nothing reaches the page until ``confirm`` decides: the pieces are
    kept, and ``confirm(wait=False)`` is asked at each one (None: not known yet). True: the
    context is the one the request carried, so the pieces kept are shown and the rest streams
    through; False: it changed, generation stops and ``speak`` raises ContextChanged for the turn to
    be asked for again. A stream that ends undecided asks ``confirm(wait=True)``, which decides.
    The call's spend is recorded either way (gateway.stream)."""

    def __init__(self, confirm: Callable[[bool], bool | None]) -> None:
        self.confirm = confirm
        self.stream: StreamingTurn | None = None  # set by speak
        self.pieces: list[str] = []
        self.text = ""
        self.decided: bool | None = None
        self.taken: int | None = None  # pieces the turn took before it asked to stop, once shown
        self.failed: Exception | None = None

    def __call__(self, piece: str) -> bool:
        if self.decided:
            return self.stream(piece)
        if self._cancelled():
            return True
        self.pieces.append(piece)
        self.text += piece
        try:
            self.decided = self.confirm(False)
        except Exception as exc:  # raised by reply(), not through the provider's stream
            self.failed = exc
            return True
        if self.decided is None:
            return self.stream.has_said_enough(self.text)  # held or not, a turn stops where it would
        return self._show() if self.decided else True

    def _show(self) -> bool:
        for index, piece in enumerate(self.pieces):
            if self.stream(piece):
                self.taken = index + 1
                return True
        return False

    def _cancelled(self) -> bool:
        cancelled = getattr(self.stream, "cancelled", None)
        return cancelled is not None and cancelled.is_set()

    def reply(self, reply):
        """The stream ended: the reply, as a live stream would have left it, or ContextChanged."""
        if self.failed is not None:
            raise self.failed
        if self._cancelled():
            return reply  # the run is over: speak raises RunCancelled with nothing shown
        if self.decided is None:
            self.decided = bool(self.confirm(True))
            if self.decided:
                self._show()
        if not self.decided:
            raise ContextChanged
        if self.taken is not None and self.taken < len(self.pieces):
            # Shown at the end, the turn asked to stop earlier than the model did: keep what a live
            # stream would have kept.
            reply = dataclasses.replace(reply, text="".join(self.pieces[: self.taken]), stop_reason="stop_requested")
        return reply


_prefixes: dict[tuple, str] = {}


def call_tag(debate: Debate, request: TurnRequest, *, attempt: int = 1) -> CallTag:
    """The tag of a turn's model call: ids and numbers only (gateways/llm/types.py)."""
    aspect = request.aspect_index
    return CallTag(
        debate_id=debate.id,
        persona=request.speaker.persona.persona_id,
        phase=request.phase,
        addressee=request.addressee_id,
        round=request.round if request.round is not None else (aspect + 1 if aspect is not None else None),
        aspect=aspect,
        room=request.room.id if request.room is not None else None,
        turn=request.turn,
        participants=request.participants,
        items=request.items,
        attempt=attempt,
    )


def _prefix_cache_ttl(debate: Debate, request: TurnRequest) -> str:
    """A debate that pauses after each round waits for its owner, often past five minutes: the
    speaker's contract (the system prefix, the same all debate) is cached for the hour, so a
    continue reads it instead of writing it again; what follows it changes from turn to turn and
    stays on the five-minute cache (the hour's write costs 2x the input price, not 1.25x)."""
    return "1h" if debate.pause_after_round and request.cache_ttl != "1h" else ""


def _system_prefix(debate: Debate, persona) -> str:
    # Built once per persona and debate: identical bytes every call is what makes it cacheable.
    key = (debate.id, persona.id, persona.updated_at)
    if key not in _prefixes:
        _prefixes[key] = stable_prefix(debate, persona)
    return _prefixes[key]


def speak(
    debate: Debate,
    request: TurnRequest,
    *,
    interrupted: Message | None = None,
    cancelled: threading.Event | None = None,
    names: list[str] | None = None,
    pipeline: Pipeline | None = None,
    hold: HeldReply | None = None,
) -> Message | None:
    """Stream one turn to the page and persist it. Returns None when the persona passed, or said
    nothing of its own twice (only prompt echoes, forbidden phrases, or nothing: no placeholder
    ever stands in for a turn).

    A reply the token limit cut off ends at its last whole sentence and is marked ``cut_off``.

    ``names``: the participants' names, when the caller has them. With ``pipeline`` (the run
    loop's main channel), the finished turn is written beside the next one (see Pipeline).

    With ``hold``, the reply is shown only once ``hold`` confirms the context (see HeldReply);
    ContextChanged is raised, with nothing shown or written but the call's spend, if it does not.

    If ``cancelled`` is set while it streams, generation stops and RunCancelled is raised: the
    unfinished message stays ``streaming`` for the next run to say again."""
    speaker, kind, turn, context, room = request.speaker, request.kind, request.turn, request.context, request.room
    aspect_index, allow_pass, role = request.aspect_index, request.allow_pass, request.role
    persist, settle, record_with = (
        (pipeline.persist, pipeline.settle, pipeline.record_with) if pipeline else (None,) * 3
    )
    persona = speaker.persona
    forbidden = _forbidden(request)
    if names is None:
        names = list(debate.participants.values_list("persona__name", flat=True))
    echoes = context_lines(context)
    row = turn_kind(kind)
    prompt = Prompt(
        system_prefix=request.system_prefix if request.system_prefix is not None else _system_prefix(debate, persona),
        messages=[{"role": "user", "content": _user_content(context, request.context_lead)}],
        max_tokens=row.max_tokens,
        cache_ttl=request.cache_ttl,
        prefix_cache_ttl=_prefix_cache_ttl(debate, request),
    )

    def begin() -> Message:
        if settle is not None:
            settle()
        return message_begin(
            debate=debate,
            persona=persona,
            seat=speaker.seat,
            kind=kind,
            turn=turn,
            room=room,
            aspect_index=aspect_index,
        )

    stream = StreamingTurn(
        begin=begin,
        forbidden=forbidden,
        message=interrupted,
        sentence_limit=row.sentence_limit,
        cancelled=cancelled,
        names=names,
        echoes=echoes,
    )
    tag = call_tag(debate, request)
    limit = row.sentence_limit

    def spoken(reply) -> Spoken:
        """What of a reply reaches the page: no name prefix, no prompt furniture, its kind's length,
        and never a sentence the token limit cut off."""

        def shaped(text: str) -> str:
            return shape_turn(strip_furniture(tidy(text, persona.name), names, echoes=echoes), limit)

        text = shaped(reply.text)
        if reply.stop_reason != "max_tokens":
            return Spoken(text)
        whole = shaped(end_at_whole_sentence(reply.text))
        # Cut only if the limit took something that would have been shown (not past the kind's length).
        return Spoken(whole, cut_off=whole != text)

    def announce() -> None:
        turn_request_announce(debate=debate, persona=persona, seat=speaker.seat, kind=kind, room=room)

    # Who is thinking, on the page before any word: after the turns written before it (the persist lane).
    if persist is not None:
        persist(announce)
    else:
        announce()
    if hold is None:
        reply = gateway.stream(role=role, prompt=prompt, on_text=stream, tag=tag, record_with=record_with)
    else:
        hold.stream = stream
        reply = hold.reply(gateway.stream(role=role, prompt=prompt, on_text=hold, tag=tag, record_with=record_with))
    said = spoken(reply)

    slipped = find_forbidden(said.text, forbidden)
    passed = allow_pass and is_pass(said.text)
    if (slipped or not said.text) and not passed and not _cancelled(cancelled):
        # Generated once more: with a phrase the persona never uses (the sentences that carry what it
        # meant named, to be said in other words), or with nothing in its own words (only the prompt
        # echoed, or nothing at all).
        first = Spoken(clean_forbidden(said.text, forbidden, names), said.cut_off)
        keep = carrying_sentences(said.text, forbidden, names)
        stream.reset()
        retry = Prompt(
            system_prefix=prompt.system_prefix,
            system=_second_draft_note(slipped, keep),
            messages=prompt.messages,
            max_tokens=prompt.max_tokens,
            cache_ttl=prompt.cache_ttl,
            prefix_cache_ttl=prompt.prefix_cache_ttl,
        )
        again = call_tag(debate, request, attempt=2)
        said = spoken(gateway.stream(role=role, prompt=retry, on_text=stream, tag=again, record_with=record_with))
        # Still there: cut, what its sentence says kept (orchestration/voice.py).
        said = Spoken(clean_forbidden(said.text, forbidden, names), said.cut_off)
        if not said.text:
            said = first  # the first draft, its phrases cut, if anything of its own was left

    if _cancelled(cancelled):
        raise RunCancelled(f"debate {debate.id}: turn {turn} cut off, the run is over")
    if allow_pass and is_pass(said.text) and stream.message is None:
        return None
    text, citations = turn_citations(context=context, persona=persona, text=said.text)
    if not text:
        # Nothing of the persona's own words survived two drafts: no placeholder is shown as its
        # turn. A row already on the page is withdrawn; the caller treats the turn as unsaid.
        logger.warning("Debate %s: turn %s of %s said nothing usable, twice", debate.id, turn, persona.name)
        if stream.message is not None:
            unsaid = stream.message
            if persist is None:
                message_withdraw(message=unsaid)
            else:
                persist(lambda: message_withdraw(message=unsaid))
        return None
    cut_off = said.cut_off
    if persist is None:
        message = stream.ensure_message()
        message_finish(message=message, text=text, citations=citations, cut_off=cut_off)
        return message
    if stream.message is None:
        message = Message(
            debate=debate,
            room=room,
            persona=persona,
            kind=kind,
            turn=turn,
            aspect_index=aspect_index,
            text=text,
            status=Message.Status.COMPLETE,
            cut_off=cut_off,
        )
        persist(lambda: message_say(message=message, seat=speaker.seat, citations=citations))
        return message
    message = stream.message
    message.text, message.status, message.cut_off = text, Message.Status.COMPLETE, cut_off
    persist(lambda: message_finish(message=message, text=text, citations=citations, cut_off=cut_off))
    return message


def _user_content(context: str, lead: tuple[str, ...]) -> str | list[dict]:
    """The turn's user message: its lead in blocks of its own (a breakpoint asked for after the
    blackboard and after the exchange), the rest in one; the whole text if the context does not
    start with its lead (a hook rewrote what came before the turn's instructions)."""
    joined = "".join(lead)
    if not lead or not context.startswith(joined):
        return context
    return text_blocks([*lead, context[len(joined) :]], cache_after={0, len(lead) - 1})


@dataclass(frozen=True)
class Spoken:
    """What of a reply reaches the page, and whether the token limit cut it short."""

    text: str
    cut_off: bool = False


def _cancelled(cancelled: threading.Event | None) -> bool:
    return cancelled is not None and cancelled.is_set()


def _forbidden(request: TurnRequest) -> list[str]:
    """What no word of the turn may say: the house's phrases, its speaker's own, the request's."""
    return list(dict.fromkeys([*forbidden_phrases_of(request.speaker.persona), *request.forbidden]))


def _second_draft_note(slipped: list[str], keep: list[str] = ()) -> str:
    """What a second draft is told: the phrases to leave out and, where the first draft's answer
    was in a sentence that held one, that sentence, to be said again in other words."""
    if not slipped:
        return words.SECOND_DRAFT_EMPTY
    note = words.SECOND_DRAFT_FORBIDDEN.format(phrases=quoted(slipped))
    if keep:
        note += "\n" + words.SECOND_DRAFT_KEEP.format(sentences="\n".join(f"- {sentence}" for sentence in keep))
    return note


def write(
    debate: Debate,
    request: TurnRequest,
    *,
    interrupted: Message | None = None,
    cancelled: threading.Event | None = None,
) -> tuple[Message, str]:
    """A mode's long-form output (the Collaborate mode's answers and artifact): streamed to the page
    as it is written, with no sentence cap and no furniture filter, so its Markdown stays whole,
    but under the same voice guard as a spoken turn: no forbidden phrase (the house's, the
    speaker's, the request's) is ever shown; an output that slipped into one is asked for once more
    (the sentences carrying what it meant named, to be said in other words), and a phrase still
    there is cut with its sentence's meaning kept (orchestration/voice.py). The message row is
    created before the first token (its column shows at once) and marked as ledgered (the position
    ledger is the dialogue's, not this). ``clean(text)`` shapes the final text; an empty result
    finishes the message with no text, marked ``unanswered`` ("wrote nothing": the page says so, no
    placeholder speaks for the role). An output the token limit cut off ends at its last whole line
    or sentence and is marked ``cut_off``. Returns the finished message and the model's raw text.

    A model error leaves the message ``streaming`` (the caller decides: say it again, or finish it
    with a note); a cancelled run raises RunCancelled, as ``speak`` does. The request's
    ``context`` is the prompt, its ``system_prefix`` the role's."""
    speaker, kind, turn, clean = request.speaker, request.kind, request.turn, request.clean
    row = turn_kind(kind)
    forbidden = _forbidden(request)
    names = list(debate.participants.values_list("persona__name", flat=True))
    message = interrupted
    if message is None:
        message = message_begin(
            debate=debate,
            persona=speaker.persona,
            seat=speaker.seat,
            kind=kind,
            turn=turn,
            aspect_index=request.aspect_index,
        )
    Message.objects.filter(pk=message.pk).update(ledgered=True)
    prompt = Prompt(
        system_prefix=request.system_prefix,
        messages=[{"role": "user", "content": request.context}],
        max_tokens=row.max_tokens,
        cache_ttl=request.cache_ttl,
    )
    reply = _write_once(debate, request, message, prompt, forbidden, names, cancelled)
    first = reply
    if slipped := find_forbidden(reply.text, forbidden):
        keep = carrying_sentences(reply.text, forbidden, names)
        retry = dataclasses.replace(prompt, system=_second_draft_note(slipped, keep))
        reply = _write_once(debate, request, message, retry, forbidden, names, cancelled, attempt=2)
    text, kept = _written(reply, forbidden, names, clean), reply
    if not text and reply is not first:  # the second draft left nothing of its own: the first, cut
        text, kept = _written(first, forbidden, names, clean), first
    cut_off = kept.stop_reason == "max_tokens"
    unanswered = "" if text else Message.Unanswered.WROTE_NOTHING
    message_finish(message=message, text=text, cut_off=cut_off, unanswered=unanswered)
    return message, reply.text


def _write_once(debate, request, message, prompt, forbidden, names, cancelled, *, attempt: int = 1):
    """One long-form draft streamed into ``message`` (from nothing), its forbidden phrases never
    shown: what is pushed is the text so far with them cut, its last few characters held back so a
    phrase being written is never half shown."""
    if message.text:
        message_text_save(message=message, text="")  # a cut-off output, or a first draft, starts again
    holdback = max([len(phrase) for phrase in forbidden] or [0])
    state = {"text": "", "flushed": time.monotonic()}

    def on_text(piece: str) -> bool:
        if cancelled is not None and cancelled.is_set():
            return True
        state["text"] += piece
        if time.monotonic() - state["flushed"] >= FLUSH_SECONDS:
            state["flushed"] = time.monotonic()
            shown = clean_forbidden(state["text"], forbidden, names)
            message_text_save(message=message, text=shown[: max(0, len(shown) - holdback)].rstrip())
        return False

    tag = call_tag(debate, request, attempt=attempt)
    reply = gateway.stream(role=request.role, prompt=prompt, on_text=on_text, tag=tag)
    if cancelled is not None and cancelled.is_set():
        raise RunCancelled(f"debate {debate.id}: turn {request.turn} cut off, the run is over")
    return reply


def _written(reply, forbidden: list[str], names: list[str], clean: Callable[[str], str] | None) -> str:
    """A long-form reply's final text: ended at a whole line where the token limit cut it, its
    forbidden phrases cut (what they said kept), shaped by the request's ``clean``."""
    raw = end_at_whole_sentence(reply.text) if reply.stop_reason == "max_tokens" else reply.text
    raw = clean_forbidden(raw, forbidden, names)
    return (clean(raw) if clean else raw).strip()


def say_outright(
    debate: Debate, request: TurnRequest, *, interrupted: Message | None, cancelled: threading.Event | None
) -> Message | None:
    """A main-channel turn written before it returns, outside the position ledger (the two-role
    modes keep ledgers of their own): spoken (speak) or, for a long-form request, written (write)."""
    if request.long_form:
        return write(debate, request, interrupted=interrupted, cancelled=cancelled)[0]
    message = speak(debate, request, interrupted=interrupted, cancelled=cancelled)
    if message is not None:  # marked at once, so a run after a dead one does not fold it either
        Message.objects.filter(pk=message.pk).update(ledgered=True)
    return message


def write_unwritten(debate: Debate, request: TurnRequest, *, text: str = "", unanswered: str = "") -> Message:
    """A long-form main-channel turn finished without its model (it failed): with ``text``
    standing in, or empty and marked ``unanswered`` (its column says so; no placeholder speaks
    for the role). A row already begun for the turn is finished."""
    message = Message.objects.filter(debate=debate, room__isnull=True, turn=request.turn).first()
    if message is None:
        speaker = request.speaker
        message = message_begin(
            debate=debate, persona=speaker.persona, seat=speaker.seat, kind=request.kind, turn=request.turn
        )
    Message.objects.filter(pk=message.pk).update(ledgered=True)
    message_finish(message=message, text=text, unanswered=unanswered)
    return message
