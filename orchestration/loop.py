"""The one run loop every mode shares: begin, the mode's phases in order, finish.

A mode (orchestration/modes/) is a strategy: it declares its side lanes, its phases (steps run
in order, each a method taking nothing) and a few hooks (the context a persona gets, whether to
keep talking, what runs after each main-channel message, who has a stake in the next turn, the
results). Turns, the position ledger, round records, phases and stopping are the loop's.

Every step is persisted before the next begins, so ``execute`` can be called again on a debate
whose worker died: it reads what is done and carries on from there, redoing only a turn that was
cut off mid-stream (into the same message).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from debates import payloads as p
from debates.blackboard.ledger import (
    RECENT_BEFORE,
    ledger_update,
    reflection_due,
    reflections_generate,
    round_record_extract,
)
from debates.models import Debate, Event, Message
from debates.services.context import with_context
from debates.services.events import event_append
from debates.services.leases import Lease, LeaseLost
from debates.services.messages import debate_totals, turn_pass
from debates.state import EventKind
from debates.turns import DIALOGUE_KINDS
from gateways.llm import gateway
from gateways.llm.types import CallTag, Prompt, Role
from memory.services.insights import insights_remember
from memory.services.persona_memory import persona_memories_remember
from memory.services.recall import debate_recall
from orchestration.context import RECENT_MESSAGES, SideWork, TurnReads, assemble_context, side_work_read, turn_reads
from orchestration.lanes import Lanes, RunCancelled
from orchestration.prompts import ASPECT_PLANNER
from orchestration.schemas import AspectPlan
from orchestration.speaking import ContextChanged, HeldReply, Speaker, speak
from orchestration.turn_taking import Seat, choose_speaker

logger = logging.getLogger(__name__)

# Lanes every mode has: the main channel's finished turns, written while the next turn's request
# goes out (every other lane's job waits for those queued before it: see settle()), the main
# channel's ledger updates in order (the next speaker waits for all but the last), the crux rooms'
# (so a speaker never queues behind a room's), round records and reflections (only the finish
# waits for them), one-off extractions (aspect plan, evidence).
BASE_LANES = {"persist": 1, "ledger": 1, "room_ledger": 1, "notes": 1, "extraction": 1}
NOTES_WAIT_SECONDS = 60


class DebateStopped(Exception):
    """The owner asked the debate to stop."""


class DebatePaused(Exception):
    """The run pauses here: the owner asked for it, or an Analyst/Critic round ended without
    auto-continue. ``reason`` and ``round`` go into the debate_paused event."""

    def __init__(self, reason: str = "requested", round: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.round = round


class DebateRun:
    def __init__(self, debate: Debate, mode_class, *, lease: Lease | None = None) -> None:
        self.debate = debate
        self.lease = lease
        participants = list(debate.participants.select_related("persona").order_by("seat"))
        self.speakers = [Speaker(p.persona, p.seat) for p in participants]
        self.by_persona = {s.persona.id: s for s in self.speakers}
        self.names = {s.persona.id: s.name for s in self.speakers}
        # What this run knows of the main channel, read from the log once and then kept up to date
        # by say(): nothing else writes main-channel messages while the run holds the lease.
        self._main_channel: _MainChannel | None = None
        self.mode = mode_class(self)
        # A main-channel ledger update starts as soon as its turn is said, and waits for the turn's
        # rows only before writing its own (_ledger_job). Every lane keeps its connections for the
        # run: a new one per job (a PostgreSQL backend started, its session set up) cost more CPU
        # than most jobs' queries, on the two cores the next turn's request shares with them.
        lanes = {**BASE_LANES, **self.mode.lanes}
        self.lanes = Lanes(
            str(debate.pk),
            lanes,
            first="persist",
            beside_first=("ledger",),
            keep=lanes,
        )
        self._settled = 0  # persist-lane jobs known to be written
        self._writes: list = []  # persist-lane futures, one per turn said, in order
        self._records: list[dict] = []  # ModelCall rows handed to the persist lane (_record_later)
        self._turn_reads: TurnReads | None = None  # read by say() for the context it asks the mode for
        # Ledger updates this run queued, with their message (whose row, and so id, the persist
        # lane may not have written yet when it is queued).
        self._folding: list[tuple[Message, Future]] = []

    # ── the loop ──────────────────────────────────────────────────────────────────────────────

    def execute(self) -> None:
        try:
            self._begin()
            self.check_stop()  # stopped while paused or queued: finish it without another turn
            self._recall()
            self._fold_what_a_dead_run_left()
            for step in self.mode.phases():
                step()
            self._remember()
            self.finish(Debate.Status.COMPLETED)
        except DebateStopped:
            self.mode.wind_down()
            self.lanes.wait("notes", timeout=NOTES_WAIT_SECONDS)
            self._remember()
            self.finish(Debate.Status.STOPPED)
        except DebatePaused as paused:
            self._pause(paused)
        except (LeaseLost, RunCancelled):
            raise  # this run may write nothing more
        except Exception:
            self._settle_quietly()  # the turns said so far are written before the run fails
            raise
        finally:
            self.lanes.shutdown()
            self._write_records_left()

    def _pause(self, paused: DebatePaused) -> None:
        """Let go of the debate at a turn boundary. The main channel's ledger updates are let
        finish (the page's positions stay current); other side work is cancelled at its next safe
        point and picked up from the log by the run that continues (live crux rooms restarted,
        detection windows scanned again, unledgered messages folded). Only then is the pause
        committed, so a Continue never finds this run still holding the lease."""
        self.settle()  # the last turn's rows (and so its ledger update's) come first
        self.lanes.wait("ledger", timeout=NOTES_WAIT_SECONDS)
        self.settle()  # the ledger updates' ModelCall rows
        self.mode.before_pause()
        self.lanes.shutdown()
        with transaction.atomic():
            Debate.objects.filter(pk=self.debate.pk).update(status=Debate.Status.PAUSED, pause_requested=False)
            event_append(
                debate_id=self.debate.id,
                payload=p.DebatePaused(
                    reason=paused.reason,
                    round=paused.round,
                    turn=self.channel.turns,
                    totals=debate_totals(self.debate.id),
                ),
            )
        logger.info("Debate %s paused (%s)", self.debate.id, paused.reason)

    def _begin(self) -> None:
        debate = self.debate
        with transaction.atomic():
            if not Event.objects.filter(debate=debate, kind=EventKind.DEBATE_STARTED).exists():
                event_append(
                    debate_id=debate.id,
                    payload=p.DebateStarted(
                        topic=debate.topic,
                        mode=debate.mode,
                        max_turns=debate.max_turns,
                        provider=debate.provider or settings.FAULTLINE_LLM,
                        personas=[
                            p.SeatedPersona(
                                id=s.persona.id, name=s.persona.name, seat=s.seat, tagline=s.persona.tagline
                            )
                            for s in self.speakers
                        ],
                    ),
                )
            else:
                event_append(debate_id=debate.id, payload=p.DebateResumed(from_seq=debate.last_seq))
            Debate.objects.filter(pk=debate.pk).update(
                status=Debate.Status.RUNNING,
                failure_reason="",
                started_at=debate.started_at or timezone.now(),
            )
        self.debate.refresh_from_db()

    # ── long-term memory: side work, so a failure is logged and the debate goes on ─────────────

    def _recall(self) -> None:
        """Before the first turn: the owner's earlier insights and established facts (memory/)."""
        try:
            recall = debate_recall(debate=self.debate)
        except Exception:
            logger.exception("Memory recall for debate %s failed; it starts without memory", self.debate.id)
            return
        if recall is not None and recall.note:
            logger.warning("Debate %s: %s", self.debate.id, recall.note)

    def _remember(self) -> None:
        """After the last phase, before the finish: what this debate leaves for later ones."""
        self.settle()  # the last turn is read from the database
        for what, remember in (("insights", insights_remember), ("persona memories", persona_memories_remember)):
            try:
                remember(debate=self.debate)
            except Exception:
                logger.exception("Saving the %s of debate %s failed; the debate finishes anyway", what, self.debate.id)

    def _fold_what_a_dead_run_left(self) -> None:
        """Ledger updates a dead worker had in flight are queued again, in turn order."""
        missed = Message.objects.filter(debate=self.debate, status=Message.Status.COMPLETE, ledgered=False)
        for message in missed.select_related("debate", "persona").order_by("room_id", "turn"):
            self.fold_into_ledger(message)

    def finish(self, status: str) -> None:
        self.settle()
        outcome = self.mode.results(status)
        with transaction.atomic():
            self.mode.before_finish(outcome)
            Debate.objects.filter(pk=self.debate.pk).update(
                status=status, phase="done", results=outcome, finished_at=timezone.now()
            )
            event_append(
                debate_id=self.debate.id,
                payload=p.DebateFinished(status=status, results=outcome, totals=debate_totals(self.debate.id)),
            )

    def phase(self, phase: str, aspect_index: int | None = None) -> None:
        label = phase if aspect_index is None else f"{phase}:{aspect_index}"
        if self.debate.phase == label:
            return  # already announced before a resume
        self.settle()  # the last turn's events come first in the log
        with transaction.atomic():
            event_append(
                debate_id=self.debate.id,
                payload=p.PhaseChanged(phase=phase, aspect_index=aspect_index, totals=debate_totals(self.debate.id)),
            )
            Debate.objects.filter(pk=self.debate.pk).update(phase=label)
        self.debate.phase = label

    def check_stop(self) -> None:
        """A turn boundary: stop or pause if asked to, and never write on a debate whose lease is
        gone. A stop asked for with a pause wins."""
        self.lanes.check()
        if self.lease is not None:
            asked = self.lease.requests()  # one round trip: the lease's session is alive, and the flags
        else:
            asked = Debate.objects.filter(pk=self.debate.pk).values_list("stop_requested", "pause_requested").first()
        if asked is None:
            return
        if asked[0]:
            raise DebateStopped
        if asked[1]:
            raise DebatePaused("requested", round=self.mode.rounds_done)

    # ── steps modes compose ───────────────────────────────────────────────────────────────────

    def start_planning(self) -> None:
        """The aspect plan is made while the openings stream (they don't need it)."""
        self.lanes.submit("extraction", self._plan_aspects)

    def await_planning(self) -> None:
        self.lanes.wait("extraction")
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
                    "content": f"Topic: {self.debate.topic}\nParticipants: " + ", ".join(s.name for s in self.speakers),
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

    def openings(self) -> None:
        self.phase("opening")
        done = set(
            self.main_messages([Message.Kind.OPENING])
            .filter(status=Message.Status.COMPLETE)
            .values_list("persona_id", flat=True)
        )
        for speaker in self.speakers:
            if speaker.persona.id not in done:
                self.say(speaker, Message.Kind.OPENING, phase="opening")

    def dialogue(self) -> None:
        total = self.debate.max_turns
        per_aspect = max(1, math.ceil(total / len(self.debate.aspects)))
        seats = [Seat(s.persona.id, s.name, s.seat) for s in self.speakers]
        slot = self._dialogue_slots_used()
        consecutive_passes = 0
        previous_aspect = None
        while slot < total and self.mode.keep_talking():
            aspect_index = min(slot // per_aspect, len(self.debate.aspects) - 1)
            if previous_aspect is not None and aspect_index != previous_aspect:
                self._record_round(previous_aspect)
            previous_aspect = aspect_index
            self.phase("dialogue", aspect_index)
            history = self._history()
            side = side_work_read(self.debate)  # weighs on who speaks, and the speaker's context shows it
            chosen = choose_speaker(seats=seats, history=history, stakes=self.mode.stakes(side))
            speaker = self.by_persona[chosen.persona_id]
            spoke_on_aspect = (speaker.persona.id, aspect_index) in self.channel.spoke_on
            kind = Message.Kind.REPLY if spoke_on_aspect else Message.Kind.KEY_ARGUMENT
            last_name = self.by_persona[history[-1][0]].name if history else ""
            message = self.say(
                speaker,
                kind,
                phase=f"dialogue_{kind}",
                aspect_index=aspect_index,
                addressee=last_name,
                allow_pass=consecutive_passes < len(seats) - 1,
                side=side,
            )
            if message is None:
                self.settle()
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
            self.phase("closing")
        self._before_closings()
        done = set(
            self.main_messages([Message.Kind.CLOSING])
            .filter(status=Message.Status.COMPLETE)
            .values_list("persona_id", flat=True)
        )
        for speaker in self.speakers:
            if speaker.persona.id not in done:
                self.say(speaker, Message.Kind.CLOSING, phase="closing", beside=beside if early else None)
                early = False
        self.await_ledger(lag=0, rooms=True)  # the closing stances belong in the final ledger
        self.fold_put_off()

    def _before_closings(self) -> None:
        # The closings read the whole ledger but the last message's update, as every turn does (its
        # speaker sees that message verbatim): every crux-room update is in before the first one.
        self.await_ledger(lag=1, rooms=True)
        self.fold_put_off()
        self.settle()

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
            self.phase("closing")
            same = side_work_read(self.debate).disputes() == side.disputes()
            if not same:
                logger.info(
                    "Debate %s: a crux room or dispute came up beside the first closing; asking again", self.debate.id
                )
            return same

        return confirm

    def await_notes(self) -> None:
        self.lanes.wait("notes", timeout=NOTES_WAIT_SECONDS)

    # ── turns ─────────────────────────────────────────────────────────────────────────────────

    def main_messages(self, kinds=None):
        messages = Message.objects.filter(debate=self.debate, room__isnull=True)
        return messages.filter(kind__in=kinds) if kinds else messages

    @property
    def channel(self) -> _MainChannel:
        if self._main_channel is None:
            self._main_channel = _MainChannel.read(self)
        return self._main_channel

    def say(
        self,
        speaker: Speaker,
        kind: str,
        *,
        phase: str,
        aspect_index=None,
        addressee="",
        allow_pass=False,
        beside=None,
        side: SideWork | None = None,
    ):
        """One main-channel turn. ``beside``: see closings(). ``side``: the side work, when the
        caller read it at this turn boundary already (the dialogue, for the stakes)."""
        self.check_stop()
        channel = self.channel
        interrupted = channel.interrupted
        if interrupted is not None and interrupted.persona_id != speaker.persona.id:
            # The cut-off turn belongs to someone else: it is that person's turn, again.
            speaker, kind = self.by_persona[interrupted.persona_id], interrupted.kind
        turn = interrupted.turn if interrupted else channel.turns + 1
        reads = None
        if kind != Message.Kind.OPENING:  # an opening's context is a cold start: no ledger, no disputes
            # What does not depend on the ledger is read while the ledger update may still run.
            reads = turn_reads(
                debate=self.debate,
                persona=speaker.persona,
                phase=kind,
                aspect_index=aspect_index,
                recent=channel.messages[-RECENT_MESSAGES:],
                side=side,
            )
            self.await_ledger(lag=1)
        self._turn_reads = reads  # what the context below shows of them (base_context reads it)
        context = self.mode.context(speaker, kind, aspect_index=aspect_index, addressee=addressee)
        self._turn_reads = None
        hold = None
        if beside is not None and interrupted is None and reads is not None:
            hold = HeldReply(self._confirm_early_closing(beside, reads.side))
        try:
            message = speak(
                debate=self.debate,
                speaker=speaker,
                kind=kind,
                turn=turn,
                context=context,
                phase=phase,
                aspect_index=aspect_index,
                interrupted=interrupted,
                allow_pass=allow_pass,
                cancelled=self.lanes.cancelled,
                names=list(self.names.values()),
                persist=self._persist,
                settle=self.settle,
                record_with=self._record_later,
                hold=hold,
            )
        except ContextChanged:  # asked for again with what it must see
            return self.say(
                speaker, kind, phase=phase, aspect_index=aspect_index, addressee=addressee, allow_pass=allow_pass
            )
        channel.interrupted = None
        if message is not None:
            channel.said(message)
            self.fold_into_ledger(message, written=self._writes[-2:], before=channel.messages[-RECENT_BEFORE - 1 : -1])
        return message

    def base_context(self, speaker: Speaker, kind: str, *, aspect_index, addressee: str) -> str:
        return assemble_context(
            debate=self.debate,
            persona=speaker.persona,
            phase=kind,
            addressee=addressee,
            aspect_index=aspect_index,
            names=self.names,
            recent=self.channel.messages[-RECENT_MESSAGES:],
            reads=self._turn_reads,
        )

    # ── writing finished turns beside the next one ────────────────────────────────────────────

    def _persist(self, write) -> None:
        """Queue a finished main-channel turn's rows: say() goes on to the next turn at once (its
        speaker reads the turn from memory), and the next turn's first row waits for these."""
        self._writes.append(self.lanes.submit("persist", write))

    def _record_later(self, write) -> None:
        """A model call's ModelCall row, written on the persist lane (so the next turn does not
        wait for it, and the turn's events that carry the spend come after it). Spend is never
        lost: a row the lane did not write (the run ended first) is written by execute() last."""
        pending = {"write": write, "done": False}

        def job():
            write()
            pending["done"] = True

        self._records.append(pending)
        if self.lanes.submit("persist", job) is None:
            job()

    def _write_records_left(self) -> None:
        for pending in self._records:
            if not pending["done"]:
                try:
                    pending["write"]()
                    pending["done"] = True
                except Exception:
                    logger.exception("Debate %s: a model call's ledger row could not be written", self.debate.id)

    def settle(self) -> None:
        """Wait until every finished turn queued so far is written; a failed write fails the run.
        Whatever reads the main channel from the database, or appends an event after a turn's,
        settles first. Side lanes need not: their jobs start after the turns queued before them."""
        futures = self.lanes.futures("persist")
        for future in futures[self._settled :]:
            future.result()
        self._settled = len(futures)

    def _settle_quietly(self) -> None:
        try:
            self.settle()
        except Exception:
            logger.exception("Debate %s: a finished turn could not be written", self.debate.id)

    def _dialogue_slots_used(self) -> int:
        passes = Event.objects.filter(debate=self.debate, kind=EventKind.TURN_PASSED).count()
        return len(self.channel.dialogue) + passes

    def _history(self) -> list[tuple[int, str]]:
        return list(self.channel.history)

    # ── the position ledger and notes ─────────────────────────────────────────────────────────

    def fold_into_ledger(self, message: Message, written=None, before: list[Message] | None = None) -> None:
        """Queue the ledger update for a finished message (main channel or crux room). ``written``:
        the persist-lane jobs writing the turn before it and it, when they may not be done yet.
        ``before``: the messages the update reads before it, when the run holds them."""
        lane = "ledger" if message.room_id is None else "room_ledger"
        future = self.lanes.submit(lane, self._ledger_job, message, written, before)
        if future is not None:
            self._folding.append((message, future))

    def fold_put_off(self) -> None:
        """Fold now, in turn order, the messages whose ledger update an outage put off (see
        ``ledger_update``) and that no queued or running update of this run will fold: a short
        outage on the side calls alone, which no main-channel call saw, never makes the run wait,
        so nothing else would fold them before the results are read. Called before the closings
        (their speakers read the whole ledger) and before the finish. If the model is still down,
        the update raises ModelUnavailable and the run waits it out as it would for a turn
        (run.py); the run after the wait folds what is left first."""
        self.settle()  # every message queued so far has its row (and its id)
        busy = [message.id for message, future in self._folding if not future.done()]
        put_off = Message.objects.filter(debate=self.debate, status=Message.Status.COMPLETE, ledgered=False)
        for message_id in put_off.exclude(id__in=busy).order_by("room_id", "turn").values_list("id", flat=True):
            self.check_stop()
            logger.info(
                "Debate %s: folding message %s, whose ledger update an outage put off", self.debate.id, message_id
            )
            ledger_update(message_id=message_id, names=self.names, put_off_outages=False)

    def _ledger_job(self, message: Message, written=None, recent: list[Message] | None = None) -> None:
        if not written:
            # Written (a crux room's turn, or a main-channel one whose rows are in): the message
            # and the names the run holds, not read back.
            ledger_update(message=message, names=self.names)
        else:
            # The update starts at once (the turns before this one in ``recent``, or written by then),
            # and writes once this one is written.
            *before, this = written
            for future in before:
                future.result()
            ledger_update(
                message=message,
                before_write=this.result,
                names=self.names,
                record_with=self._record_later,
                recent=recent,
            )
        # A reflection is a second model call: it runs with the other notes, not on the ledger
        # lane the next speaker waits for.
        if reflection_due(debate_id=self.debate.id):
            self.lanes.submit(
                "notes", reflections_generate, debate=self.debate, round_number=(message.aspect_index or 0) + 1
            )

    def await_ledger(self, lag: int, rooms: bool = False) -> None:
        # The speaker sees the last message verbatim anyway, so its ledger update (still running
        # beside this turn) may lag by one; everything older must be in. Crux rooms' updates are
        # awaited only where the whole ledger is due (the closings).
        self.lanes.wait("ledger", lag=lag)
        if rooms:
            self.lanes.wait("room_ledger")

    def _record_round(self, aspect_index: int) -> None:
        self.lanes.submit("notes", round_record_extract, debate=self.debate, aspect_index=aspect_index)


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
    def read(cls, run: DebateRun) -> _MainChannel:
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


__all__ = ["DebatePaused", "DebateRun", "DebateStopped", "RunCancelled"]
