"""The group discussion the dialogue and graph modes share: an aspect plan, openings, dialogue
turns on each aspect in turn (who speaks next is turn-taking's), closings.

Its turns are the main channel's pipelined ones (DebateRun.say): each is written while the next
one's request goes out, and its speaker reads the turns before it from memory (``channel``), not
from the database. A mode built on it subclasses DiscussionMode and lists the steps it uses in its
phases.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.db import transaction

from debates import payloads as p
from debates.blackboard.ledger import RECENT_BEFORE, round_record_extract
from debates.blackboard.summaries import rolling_summary_write, summary_due
from debates.models import Debate, Event, Message
from debates.question import question_planned
from debates.services.context import side_work_prompt
from debates.services.events import event_append
from debates.services.interjections import (
    interjection_answered,
    interjection_prompt,
    interjection_read_at,
    interjection_release,
    interjections_waiting,
)
from debates.services.messages import turn_pass
from debates.services.questions import question_decide
from debates.services.transcripts import participant_lines
from debates.state import EventKind
from debates.turns import DIALOGUE_KINDS
from gateways.embeddings import gateway as embeddings
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role
from memory.services.in_debate import message_vectors
from orchestration.circling import CIRCLING_TURNS, Said, circling_move, circling_reason
from orchestration.context import (
    EXCHANGE_MESSAGES,
    RECENT_MESSAGES,
    Epoch,
    SideWork,
    TurnReads,
    before_your_turn,
    side_work_read,
    turn_context,
    turn_reads,
)
from orchestration.interjecting import interjection_take_up
from orchestration.loop import NOTES_WAIT_SECONDS
from orchestration.modes.base import Mode
from orchestration.prompts import ASPECT_PLANNER, PLANNING_INPUT
from orchestration.schemas import AspectPlan
from orchestration.speaking import ContextChanged, HeldReply, Speaker, TurnRequest
from orchestration.turn_taking import Seat, choose_speaker, interjection_answerer

logger = logging.getLogger(__name__)


class DiscussionMode(Mode):
    """A mode built on the group discussion. The hooks' defaults are the plain dialogue's."""

    def __init__(self, run) -> None:
        super().__init__(run)
        self.discussion = Discussion(run, self)

    def turns_said(self) -> int:
        return self.discussion.channel.turns

    def context(self, speaker, kind: str, *, aspect_index, addressee: str) -> str:
        return self.discussion.base_context(speaker, kind, aspect_index=aspect_index, addressee=addressee)

    def keep_talking(self) -> bool:
        return True

    def after_message(self, message: Message) -> None:
        """Runs after each main-channel message of the dialogue phase (off the critical path).

        The message may not be written yet: a job queued on a lane starts once it is; code that
        reads the main channel from the database here calls ``self.run.settle()`` first."""

    def before_moving_on(self) -> None:
        """Runs when the channel went in circles, before the run moves on (orchestration/circling.py)."""

    def stakes(self, side: SideWork) -> dict[int, float]:
        """How much each persona has riding on the next turn (turn-taking weighs it). ``side``: what
        the side lanes wrote, read once at the turn boundary for this and the speaker's context."""
        return {}


class Discussion:
    def __init__(self, run, mode: DiscussionMode) -> None:
        self.run = run  # orchestration.loop.DebateRun
        self.mode = mode
        self.debate = run.debate
        # What this run knows of the main channel, read from the log once and then kept up to date
        # by say(): nothing else writes main-channel messages while the run holds the lease.
        self._main_channel: _MainChannel | None = None
        self._turn_reads: TurnReads | None = None  # read by say() for the context it asks the mode for
        self._turn_lead: tuple[str, ...] = ()  # the context's lead, as base_context built it
        # Each persona's view of the main channel at its last turn (orchestration/context.py, Epoch):
        # kept in memory only, a resumed run starts new ones (their first calls miss the cache).
        self._views: dict[int, Epoch] = {}
        # The main channel's message vectors read so far (message id -> vector, of one model): each
        # is read once, when made, for the circling check (orchestration/circling.py).
        self._vectors: dict[int, tuple[float, ...]] = {}
        self._vector_model = ""

    # ── the aspect plan ───────────────────────────────────────────────────────────────────────

    def start_planning(self) -> None:
        """The aspect plan is made while the openings stream (they don't need it)."""
        self.run.lanes.submit("extraction", self._plan_aspects)

    def await_planning(self) -> None:
        self.run.lanes.wait("extraction")
        if not self.debate.aspects:
            self.debate.refresh_from_db(fields=["aspects"])
        if not self.debate.aspects:
            self._plan_aspects()  # the side call failed: the dialogue cannot go on without aspects

    def _plan_aspects(self) -> None:
        if self.debate.aspects:
            return
        participants = participant_lines(s.persona for s in self.run.speakers)
        prompt = Prompt(
            **side_work_prompt(ASPECT_PLANNER, self.debate),
            messages=[
                {"role": "user", "content": PLANNING_INPUT.format(topic=self.debate.topic, participants=participants)}
            ],
            max_tokens=500,
            temperature=0.3,
        )
        plan = gateway.extract(
            role=Role.EXTRACTION,
            prompt=prompt,
            schema=AspectPlan,
            tag=CallTag(debate_id=self.debate.id, phase="planning", participants=tuple(self.run.handles.values())),
        )
        aspects = [aspect.model_dump() for aspect in plan.aspects]
        planned = question_planned(
            topic=self.debate.topic, proposed=plan.question, none_fits=plan.no_yes_no_question_fits
        )
        with transaction.atomic():
            Debate.objects.filter(pk=self.debate.pk).update(aspects=aspects)
            event_append(debate_id=self.debate.id, payload=p.AspectsSet(aspects=aspects))
            question_decide(debate=self.debate, planned=planned)
        self.debate.aspects = aspects

    # ── openings, dialogue, closings ──────────────────────────────────────────────────────────

    def openings(self) -> None:
        self.run.phase("opening")
        done = set(
            self.run.main_messages([Message.Kind.OPENING])
            .filter(status=Message.Status.COMPLETE)
            .values_list("persona_id", flat=True)
        )
        for speaker in self.run.speakers:
            if speaker.persona.id not in done:
                self.say(TurnRequest(speaker, Message.Kind.OPENING, phase="opening"))

    def dialogue(self) -> None:
        run = self.run
        total = self.debate.max_turns
        per_aspect = max(1, math.ceil(total / len(self.debate.aspects)))
        seats = [Seat(s.persona.id, s.name, s.seat) for s in run.speakers]
        slot = self._dialogue_slots_used()
        consecutive_passes = 0
        previous_aspect = None
        while slot < total and self.mode.keep_talking():
            aspect_index = min(slot // per_aspect, len(self.debate.aspects) - 1)
            if previous_aspect is not None and aspect_index != previous_aspect:
                self._record_round(previous_aspect)
                run.round_ended(previous_aspect + 1)  # a discussion's round is one aspect
            previous_aspect = aspect_index
            run.phase("dialogue", aspect_index)
            history = list(self.channel.history)
            side = side_work_read(self.debate)  # weighs on who speaks, and the speaker's context shows it
            # The owner's interjection, read from the database (the poster may be another process):
            # the persona it is addressed to, or the most concerned, answers it next.
            waiting = interjections_waiting(debate=self.debate)[:1]
            if waiting:
                interjection = waiting[0]
                chosen = interjection_answerer(
                    seats=seats,
                    text=interjection.text,
                    to_persona_id=interjection.to_persona_id,
                    history=history,
                    stakes=self.mode.stakes(side),
                )
                speaker = run.by_persona[chosen.persona_id]
                kind = Message.Kind.ANSWER
                request = TurnRequest(
                    speaker, kind, phase=f"dialogue_{kind}", aspect_index=aspect_index, interjection=interjection
                )
            else:
                chosen = choose_speaker(seats=seats, history=history, stakes=self.mode.stakes(side))
                speaker = run.by_persona[chosen.persona_id]
                spoke_on_aspect = (speaker.persona.id, aspect_index) in self.channel.spoke_on
                kind = Message.Kind.REPLY if spoke_on_aspect else Message.Kind.KEY_ARGUMENT
                addressee = _last_said_by(history, run.by_persona)
                # A reply answers whoever spoke last (its instruction and its tag name them); a key
                # argument answers nobody in particular.
                answered = addressee.persona.persona_id if addressee and kind == Message.Kind.REPLY else ""
                request = TurnRequest(
                    speaker,
                    kind,
                    phase=f"dialogue_{kind}",
                    aspect_index=aspect_index,
                    addressee=addressee.name if addressee else "",
                    addressee_id=answered,
                    allow_pass=consecutive_passes < len(seats) - 1,
                )
            message = self.say(request, side=side)
            if message is None:
                run.settle()
                turn_pass(debate=self.debate, persona=speaker.persona)
                self.channel.passed(speaker.persona.id)  # turn-taking moves on: the passer just had the floor
                consecutive_passes += 1
            else:
                consecutive_passes = 0
                self.mode.after_message(message)
                self.run.recall.embed_later()  # its vector, for the circling check of the turns to come
                slot += self._circling_acted_on(aspect_index, next_slot=slot + 1, per_aspect=per_aspect)
            slot += 1
        if previous_aspect is not None:
            self._record_round(previous_aspect)

    def closings(self, beside: Callable[[bool], bool] | None = None) -> None:
        """The closing statements. ``beside``: side work still running that may change what the
        closings see (the dialogue's last detection window, which may open a crux room whose card
        they should cite); ``beside(False)`` says whether it is done, ``beside(True)`` waits for it.
        The first closing's request goes out while it runs, held back (HeldReply): once it is done,
        the reply is shown if the closing's context comes out the same, and asked for again if not."""
        early = beside is not None and not beside(False) and self.channel.interrupted is None
        if not early:
            if beside is not None:
                beside(True)
            self.run.phase("closing")
        self.run.recall.close()  # nothing said from here on is recalled in this debate
        self._before_closings()
        done = set(
            self.run.main_messages([Message.Kind.CLOSING])
            .filter(status=Message.Status.COMPLETE)
            .values_list("persona_id", flat=True)
        )
        waiting = interjections_waiting(debate=self.debate)  # posted too late for the dialogue
        for speaker in self.run.speakers:
            if speaker.persona.id not in done:
                mine = next((i for i in waiting if i.to_persona_id in (None, speaker.persona.id)), None)
                if mine is not None:
                    waiting.remove(mine)
                request = TurnRequest(speaker, Message.Kind.CLOSING, phase="closing", interjection=mine)
                self.say(request, beside=beside if early else None)
                early = False
        self.run.ledger.wait(lag=0, rooms=True)  # the closing stances belong in the final ledger
        self.run.ledger.fold_put_off()

    def _before_closings(self) -> None:
        # The closings read the whole ledger but the last message's update, as every turn does (its
        # speaker sees that message verbatim): every crux-room update is in before the first one.
        self.run.ledger.wait(lag=1, rooms=True)
        self.run.ledger.fold_put_off()
        self.run.settle()

    def _confirm_early_closing(self, beside, side: SideWork):
        """HeldReply's confirm for a closing sent while ``beside`` ran: once it is done (and what
        it started: a room it opened, that room's ledger updates), the reply is kept if the crux
        cards and open disputes are still the ones its context showed. The ledger and the insights
        it read are those any turn reads (all but the last message's update, see closings)."""

        def confirm(wait: bool) -> bool | None:
            if not wait and not beside(False):
                return None
            beside(True)
            self._before_closings()
            self.run.phase("closing")
            same = side_work_read(self.debate).disputes() == side.disputes()
            if not same:
                logger.info(
                    "Debate %s: a crux room or dispute came up beside the first closing; asking again", self.debate.id
                )
            return same

        return confirm

    def await_notes(self) -> None:
        self.run.lanes.wait("notes", timeout=NOTES_WAIT_SECONDS)

    # ── turns ─────────────────────────────────────────────────────────────────────────────────

    @property
    def channel(self) -> _MainChannel:
        if self._main_channel is None:
            self._main_channel = _MainChannel.read(self.run)
        return self._main_channel

    def say(self, request: TurnRequest, *, beside=None, side: SideWork | None = None):
        """One main-channel turn. ``beside``: see closings(). ``side``: the side work, when the
        caller read it at this turn boundary already (the dialogue, for the stakes)."""
        run = self.run
        run.check_stop()
        channel = self.channel
        interrupted = channel.interrupted
        if interrupted is not None:
            # A cut-off turn is said again as what it was, with the interjection it took up if any.
            taken_up = interjection_read_at(debate=self.debate, turn=interrupted.turn)
            phase = f"dialogue_{interrupted.kind}" if interrupted.kind in DIALOGUE_KINDS else request.phase
            request = replace(request, kind=interrupted.kind, phase=phase, interjection=taken_up)
        if interrupted is not None and interrupted.persona_id != request.speaker.persona.id:
            # The cut-off turn belongs to someone else: it is that person's turn, again.
            request = replace(request, speaker=run.by_persona[interrupted.persona_id], kind=interrupted.kind)
        speaker, kind, aspect_index = request.speaker, request.kind, request.aspect_index
        reads = None
        if kind != Message.Kind.OPENING:  # an opening's context is a cold start: no ledger, no disputes
            recent = channel.messages[-RECENT_MESSAGES:]
            earlier = None
            if kind != Message.Kind.CLOSING:  # recalled beside the reads below, on a lane of its own
                earlier = run.recall.ask(aspect_index=aspect_index, recent=recent)
            # What does not depend on the ledger is read while the ledger update may still run.
            reads = turn_reads(
                debate=self.debate,
                persona=speaker.persona,
                phase=kind,
                aspect_index=aspect_index,
                recent=recent,
                side=side,
                earlier=earlier,
                view=self._views.get(speaker.persona.id),
            )
            run.ledger.wait(lag=1)
        turn = interrupted.turn if interrupted else channel.turns + 1
        if request.interjection is not None and interrupted is None:
            # Recorded in the answerer's ledger before the turn, so the turn's own update can settle it.
            interjection_take_up(
                interjection=request.interjection, persona=speaker.persona, turn=turn, aspect_index=aspect_index
            )
        self._turn_reads, self._turn_lead = reads, ()  # what the context below shows (base_context)
        context = self.mode.context(speaker, kind, aspect_index=aspect_index, addressee=request.addressee)
        lead, self._turn_reads = self._turn_lead, None
        if request.interjection is not None:
            context = before_your_turn(context, interjection_prompt(request.interjection))
        hold = None
        if beside is not None and interrupted is None and reads is not None:
            hold = HeldReply(self._confirm_early_closing(beside, reads.side))
        try:
            message = run.say(
                replace(request, context=context, context_lead=lead, turn=turn), interrupted=interrupted, hold=hold
            )
        except ContextChanged:  # asked for again with what it must see
            return self.say(request)
        channel.interrupted = None
        if request.interjection is not None:
            if message is None:
                interjection_release(interjection=request.interjection)
            else:
                run.settle()  # the answer's row exists before the interjection points at it
                interjection_answered(interjection=request.interjection, message=message, persona=speaker.persona)
        if message is not None:
            channel.said(message)
            run.ledger.fold(
                message, written=run.persisting.writes[-2:], before=channel.messages[-RECENT_BEFORE - 1 : -1]
            )
            self._summarize_when_due()
        return message

    def _summarize_when_due(self) -> None:
        """The rolling summary every SUMMARY_EVERY main-channel messages, beside the debate (the
        job starts once the message is written; the finish waits for the notes lane)."""
        if summary_due(len(self.channel.messages)):
            self.run.lanes.submit("notes", rolling_summary_write, debate=self.debate, up_to_turn=self.channel.turns)

    def base_context(self, speaker: Speaker, kind: str, *, aspect_index, addressee: str) -> str:
        context = turn_context(
            debate=self.debate,
            persona=speaker.persona,
            phase=kind,
            addressee=addressee,
            aspect_index=aspect_index,
            seating=self.run.seating,
            recent=self.channel.messages[-EXCHANGE_MESSAGES:],
            reads=self._turn_reads,
        )
        if context.epoch is not None:  # the persona's view, for its next call (see Epoch)
            self._views[speaker.persona.id] = context.epoch
        self._turn_lead = context.lead
        return context.text

    def _dialogue_slots_used(self) -> int:
        passes = Event.objects.filter(debate=self.debate, kind=EventKind.TURN_PASSED).count()
        return len(self.channel.dialogue) + passes + self._slots_skipped()

    def _slots_skipped(self) -> int:
        """Dialogue slots given up when the channel went in circles (a resumed run skips them too)."""
        circling = Event.objects.filter(debate=self.debate, kind=EventKind.CIRCLING_NOTICED)
        return sum(payload.get("slots_skipped", 0) for payload in circling.values_list("payload", flat=True))

    def _circling_acted_on(self, aspect_index: int, *, next_slot: int, per_aspect: int) -> int:
        """Dialogue slots to skip because the main channel is going in circles on this aspect
        (orchestration/circling.py): on to the next aspect, or the end of the discussion, with the
        reason in the log (and so in the chat and the exports)."""
        channel = self.channel
        fresh = sum(1 for message in channel.dialogue if message.aspect_index == aspect_index)
        if fresh < CIRCLING_TURNS:
            return 0
        model = self._circling_vectors(channel.messages)
        history = [
            Said(m.persona.name, m.text, cited=bool(m.citations), vector=self._vectors.get(m.id))
            for m in channel.messages
        ]
        reason = circling_reason(history, fresh=fresh, model=model)
        if reason is None:
            return 0
        move = circling_move(
            aspect_index=aspect_index,
            aspects=len(self.debate.aspects),
            next_slot=next_slot,
            per_aspect=per_aspect,
            total=self.debate.max_turns,
        )
        if move is None:
            return 0
        self.mode.before_moving_on()
        self.run.settle()  # the turns that circled come first in the log
        event_append(
            debate_id=self.debate.id,
            payload=p.CirclingNoticed(
                aspect_index=aspect_index,
                action=move.action,
                reason=reason,
                from_turn=channel.messages[-CIRCLING_TURNS].turn,
                to_turn=channel.turns,
                slots_skipped=move.slots_skipped,
            ),
        )
        logger.info("Debate %s went in circles on aspect %s: %s", self.debate.id, aspect_index, move.action)
        return move.slots_skipped

    def _circling_vectors(self, messages: list[Message]) -> str:
        """Read the vectors made since the last check of the channel's messages (in-debate memory
        embeds them beside the run; a turn never waits for one). Returns their model."""
        model = embeddings.current_model()
        if model != self._vector_model:
            self._vectors, self._vector_model = {}, model
        missing = [m.id for m in messages if m.id is not None and m.id not in self._vectors]
        if missing:
            self._vectors.update(message_vectors(debate=self.debate, message_ids=missing, model=model))
        return model

    def _record_round(self, aspect_index: int) -> None:
        self.run.lanes.submit("notes", round_record_extract, debate=self.debate, aspect_index=aspect_index)


def _last_said_by(history: list[tuple[int, str]], by_persona) -> Speaker | None:
    """Who said the last thing (a pass says nothing): the one a reply answers."""
    said = next((persona_id for persona_id, text in reversed(history) if text), None)
    return by_persona[said] if said is not None else None


@dataclass
class _MainChannel:
    """The main channel as far as turn-taking and the speakers' context need it: turns said (the
    last may not be written yet), who said what, who already spoke on which aspect, and a turn a
    dead worker cut off (to be said again first)."""

    turns: int = 0
    history: list[tuple[int, str]] = field(default_factory=list)  # (persona id, text; "" a pass), in turn order
    messages: list[Message] = field(default_factory=list)  # complete, in turn order, persona attached
    dialogue: list[Message] = field(default_factory=list)  # the dialogue phase's
    spoke_on: set[tuple[int, int | None]] = field(default_factory=set)
    interrupted: Message | None = None

    @classmethod
    def read(cls, run) -> _MainChannel:
        channel = cls()
        for message in run.main_messages().select_related("persona").order_by("turn"):
            channel.turns = max(channel.turns, message.turn)
            if message.status == Message.Status.STREAMING:
                channel.interrupted = message
            else:
                channel.said(message)
        return channel

    def passed(self, persona_id: int) -> None:
        """A pass is a turn in turn-taking's history (with nothing said), not a message."""
        self.history.append((persona_id, ""))

    def said(self, message: Message) -> None:
        self.turns = max(self.turns, message.turn)
        self.history.append((message.persona_id, message.text))
        self.messages.append(message)
        if message.kind in DIALOGUE_KINDS:
            self.dialogue.append(message)
            self.spoke_on.add((message.persona_id, message.aspect_index))
