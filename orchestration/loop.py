"""The one run loop every mode shares: begin, the mode's phases in order, pause or finish.

A mode (orchestration/modes/) declares its side lanes, its phases (steps run in order, each a
method taking nothing) and a few hooks (base.Mode). It asks for turns with a TurnRequest (turn,
turns_side_by_side; say for the discussion's pipelined ones, orchestration/modes/discussion.py): how
they are streamed, written and resumed, the lanes, phases, pausing and stopping are the loop's.

Every step is persisted before the next begins, so ``execute`` can be called again on a debate
whose worker died: it reads what is done and carries on from there, redoing only a turn that was
cut off mid-stream (into the same message).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from debates import payloads as p
from debates.models import Debate, Event, Message
from debates.services.events import event_append
from debates.services.leases import Lease, LeaseLost
from debates.services.messages import debate_totals
from debates.state import EventKind
from gateways.llm.types import ModelError, ModelUnavailable
from orchestration.context import Seating
from orchestration.lanes import Lanes, RunCancelled
from orchestration.ledger_folding import LedgerFolding
from orchestration.persisting import PersistLane
from orchestration.recalling import LANES as RECALL_LANES
from orchestration.recalling import InDebateRecall
from orchestration.remembering import debate_recall_quietly, debate_remember_quietly
from orchestration.speaking import HeldReply, Pipeline, Speaker, TurnRequest, say_outright, speak, write_unwritten

logger = logging.getLogger(__name__)

# Lanes every mode has: the main channel's finished turns (orchestration/persisting.py), the main
# channel's ledger digests in order (the next speaker waits for all but the last), the crux rooms'
# (so a speaker never queues behind a room's), round records and reflections (only the finish
# waits for them), one-off extractions (aspect plan, evidence).
BASE_LANES = {"persist": 1, "ledger": 1, "room_ledger": 1, "notes": 1, "extraction": 1}
NOTES_WAIT_SECONDS = 60


class DebateStopped(Exception):
    """The owner asked the debate to stop."""


class DebatePaused(Exception):
    """The run pauses here: the owner asked for it, or a round ended (an Analyst/Critic round
    without auto-continue, any mode's round with pause_after_round). ``reason`` and ``round`` go into the debate_paused event."""

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
        # Persona pk -> persona id, in seat order: how a prompt's participant lines and a call's tag
        # name each participant (orchestration/prompts.py, gateways/llm/types.py CallTag).
        self.handles = {s.persona.id: s.persona.persona_id for s in self.speakers}
        self.seating = Seating(self.names, self.handles)
        self.ledger = LedgerFolding(self)
        self.mode = mode_class(self)
        lanes = {**BASE_LANES, **RECALL_LANES, **self.mode.lanes}
        # The recall lanes read only what is written already (recalling.py): they wait for no write.
        beside_first = ("ledger", *RECALL_LANES)
        self.lanes = Lanes(str(debate.pk), lanes, first="persist", beside_first=beside_first)
        self.persisting = PersistLane(self.lanes, debate.id)
        self.settle, self.record_later = self.persisting.settle, self.persisting.record_later
        self.recall = InDebateRecall(self)

    def execute(self) -> None:
        try:
            self._begin()
            self.check_stop()  # stopped while paused or queued: finish it without another turn
            debate_recall_quietly(debate=self.debate)
            self.ledger.fold_left_by_dead_run()
            for step in self.mode.phases():
                step()
            self._remember()
            self.finish(Debate.Status.COMPLETED)
        except DebateStopped:
            self.ledger.flush()  # the messages gathered for the next digest belong in the results
            self.mode.wind_down()
            self.lanes.wait("notes", timeout=NOTES_WAIT_SECONDS)
            self._remember()
            self.finish(Debate.Status.STOPPED)
        except DebatePaused as paused:
            self._pause(paused)
        except (LeaseLost, RunCancelled):
            raise  # this run may write nothing more
        except Exception:
            self.persisting.settle_quietly()  # the turns said so far are written before the run fails
            raise
        finally:
            self.lanes.shutdown()
            self.persisting.write_records_left()

    def _pause(self, paused: DebatePaused) -> None:
        """Let go of the debate at a turn boundary. The main channel's ledger updates are let
        finish (the page's positions stay current); other side work is cancelled at its next safe
        point and picked up from the log by the run that continues (live crux rooms restarted,
        detection windows scanned again, unledgered messages folded). Only then is the pause
        committed, so a Continue never finds this run still holding the lease."""
        self.settle()  # the last turn's rows (and so its ledger digest's) come first
        self.ledger.flush()  # the messages gathered for the next digest are folded now
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
                    turn=self.mode.turns_said(),
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

    def _remember(self) -> None:
        self.settle()  # the last turn is read from the database
        debate_remember_quietly(debate=self.debate)

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

    def round_ended(self, number: int) -> None:
        """The mode's round ``number`` ended and another follows: pause here when the owner chose to
        pause after each round (Debate.pause_after_round, read when the run began: only a new run's
        Continue changes it), unless this round's pause was taken already (read from the log, so the
        run that continues, or one after a dead worker, goes on). A stop asked for meanwhile wins."""
        if not self.debate.pause_after_round:
            return
        taken = Event.objects.filter(
            debate=self.debate, kind=EventKind.DEBATE_PAUSED, payload__reason="round", payload__round=number
        )
        if taken.exists():
            return
        self.check_stop()
        self.lanes.wait("notes", timeout=NOTES_WAIT_SECONDS)  # the round's record is in before the pause
        raise DebatePaused("round", round=number)

    # ── turns: asked for with a TurnRequest ───────────────────────────────────────────────────
    def main_messages(self, kinds=None):
        messages = Message.objects.filter(debate=self.debate, room__isnull=True)
        return messages.filter(kind__in=kinds) if kinds else messages

    def turn(self, request: TurnRequest) -> Message | None:
        """A main-channel turn said and written before it returns (the two-role modes' turns): one
        already finished is not said again, one a dead run cut off is said again into its row."""
        existing = self.main_messages().filter(turn=request.turn).first()
        if existing is not None and existing.status == Message.Status.COMPLETE:
            return existing
        self.check_stop()
        return say_outright(self.debate, request, interrupted=existing, cancelled=self.lanes.cancelled)

    def turns_side_by_side(self, lane: str, requests: list[TurnRequest], failed) -> None:
        """Several main-channel turns at once, each on a thread of ``lane``, written when it returns.
        ``failed(request, error)`` deals with a model error; an outage is raised once all have ended."""
        turns = [request.turn for request in requests]
        cut_off = {m.turn: m for m in self.main_messages().filter(turn__in=turns, status=Message.Status.STREAMING)}

        def job(request: TurnRequest) -> None:
            try:
                say_outright(
                    self.debate, request, interrupted=cut_off.get(request.turn), cancelled=self.lanes.cancelled
                )
            except ModelUnavailable:
                raise
            except ModelError as exc:
                failed(request, exc)

        futures = [self.lanes.submit(lane, job, request) for request in requests]
        if any(future is None for future in futures):
            raise RunCancelled(f"debate {self.debate.id}: the run ended before its turns {turns} began")
        errors = [error for future in futures if (error := future.exception()) is not None]
        if errors:
            raise next((error for error in errors if isinstance(error, ModelUnavailable)), errors[0])

    def turn_unwritten(self, request: TurnRequest, *, text: str = "", unanswered: str = "") -> Message:
        """A long-form turn its model failed to write, finished without it (``text`` stands in)."""
        return write_unwritten(self.debate, request, text=text, unanswered=unanswered)

    def say(self, request: TurnRequest, *, interrupted: Message | None, hold: HeldReply | None) -> Message | None:
        """A discussion turn: written on the persist lane beside the next one (complete in memory).
        Its prompt lists the participants: so does its call's tag."""
        return speak(
            self.debate,
            replace(request, participants=request.participants or tuple(self.handles.values())),
            interrupted=interrupted,
            cancelled=self.lanes.cancelled,
            names=list(self.names.values()),
            pipeline=Pipeline(persist=self.persisting.persist, settle=self.settle, record_with=self.record_later),
            hold=hold,
        )


__all__ = ["DebatePaused", "DebateRun", "DebateStopped", "RunCancelled"]
