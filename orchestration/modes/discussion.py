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
from debates.models import Debate, Event, Message
from debates.services.context import with_context
from debates.services.events import event_append
from debates.services.messages import turn_pass
from debates.state import EventKind
from debates.turns import DIALOGUE_KINDS
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role
from orchestration.context import RECENT_MESSAGES, SideWork, TurnReads, assemble_context, side_work_read, turn_reads
from orchestration.loop import NOTES_WAIT_SECONDS
from orchestration.modes.base import Mode
from orchestration.prompts import ASPECT_PLANNER
from orchestration.schemas import AspectPlan
from orchestration.speaking import ContextChanged, HeldReply, Speaker, TurnRequest
from orchestration.turn_taking import Seat, choose_speaker

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
        prompt = Prompt(
            system_prefix=with_context(ASPECT_PLANNER, self.debate),
            messages=[
                {
                    "role": "user",
                    "content": f"Topic: {self.debate.topic}\nParticipants: "
                    + ", ".join(s.name for s in self.run.speakers),
                }
            ],
            max_tokens=500,
            temperature=0.3,
        )
        plan = gateway.extract(
            role=Role.EXTRACTION,
            prompt=prompt,
            schema=AspectPlan,
            tag=CallTag(debate_id=self.debate.id, phase="planning"),
        )
        aspects = [aspect.model_dump() for aspect in plan.aspects]
        with transaction.atomic():
            Debate.objects.filter(pk=self.debate.pk).update(aspects=aspects)
            event_append(debate_id=self.debate.id, payload=p.AspectsSet(aspects=aspects))
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
            previous_aspect = aspect_index
            run.phase("dialogue", aspect_index)
            history = list(self.channel.history)
            side = side_work_read(self.debate)  # weighs on who speaks, and the speaker's context shows it
            chosen = choose_speaker(seats=seats, history=history, stakes=self.mode.stakes(side))
            speaker = run.by_persona[chosen.persona_id]
            spoke_on_aspect = (speaker.persona.id, aspect_index) in self.channel.spoke_on
            kind = Message.Kind.REPLY if spoke_on_aspect else Message.Kind.KEY_ARGUMENT
            request = TurnRequest(
                speaker,
                kind,
                phase=f"dialogue_{kind}",
                aspect_index=aspect_index,
                addressee=run.by_persona[history[-1][0]].name if history else "",
                allow_pass=consecutive_passes < len(seats) - 1,
            )
            message = self.say(request, side=side)
            if message is None:
                run.settle()
                turn_pass(debate=self.debate, persona=speaker.persona)
                consecutive_passes += 1
            else:
                consecutive_passes = 0
                self.mode.after_message(message)
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
        self._before_closings()
        done = set(
            self.run.main_messages([Message.Kind.CLOSING])
            .filter(status=Message.Status.COMPLETE)
            .values_list("persona_id", flat=True)
        )
        for speaker in self.run.speakers:
            if speaker.persona.id not in done:
                request = TurnRequest(speaker, Message.Kind.CLOSING, phase="closing")
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
            )
            run.ledger.wait(lag=1)
        self._turn_reads = reads  # what the context below shows of them (base_context reads it)
        context = self.mode.context(speaker, kind, aspect_index=aspect_index, addressee=request.addressee)
        self._turn_reads = None
        hold = None
        if beside is not None and interrupted is None and reads is not None:
            hold = HeldReply(self._confirm_early_closing(beside, reads.side))
        turn = interrupted.turn if interrupted else channel.turns + 1
        try:
            message = run.say(replace(request, context=context, turn=turn), interrupted=interrupted, hold=hold)
        except ContextChanged:  # asked for again with what it must see
            return self.say(request)
        channel.interrupted = None
        if message is not None:
            channel.said(message)
            run.ledger.fold(
                message, written=run.persisting.writes[-2:], before=channel.messages[-RECENT_BEFORE - 1 : -1]
            )
        return message

    def base_context(self, speaker: Speaker, kind: str, *, aspect_index, addressee: str) -> str:
        return assemble_context(
            debate=self.debate,
            persona=speaker.persona,
            phase=kind,
            addressee=addressee,
            aspect_index=aspect_index,
            names=self.run.names,
            recent=self.channel.messages[-RECENT_MESSAGES:],
            reads=self._turn_reads,
        )

    def _dialogue_slots_used(self) -> int:
        passes = Event.objects.filter(debate=self.debate, kind=EventKind.TURN_PASSED).count()
        return len(self.channel.dialogue) + passes

    def _record_round(self, aspect_index: int) -> None:
        self.run.lanes.submit("notes", round_record_extract, debate=self.debate, aspect_index=aspect_index)


@dataclass
class _MainChannel:
    """The main channel as far as turn-taking and the speakers' context need it: turns said (the
    last may not be written yet), who said what, who already spoke on which aspect, and a turn a
    dead worker cut off (to be said again first)."""

    turns: int = 0
    history: list[tuple[int, str]] = field(default_factory=list)  # (persona id, text), in turn order
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

    def said(self, message: Message) -> None:
        self.turns = max(self.turns, message.turn)
        self.history.append((message.persona_id, message.text))
        self.messages.append(message)
        if message.kind in DIALOGUE_KINDS:
            self.dialogue.append(message)
            self.spoke_on.add((message.persona_id, message.aspect_index))
