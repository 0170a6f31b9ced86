"""The dialogue mode: aspects, openings, rounds in which personas answer each other, crux rooms
running beside the main channel, closings, results.

Every step is persisted before the next begins, so ``DialogueRun.execute`` can be called again on
a debate whose worker died: it reads what is done and carries on from there, redoing only a turn
that was cut off mid-stream (into the same message).
"""

from __future__ import annotations

import logging
import math
import time
from concurrent.futures import Future, ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from crux.models import CruxRoom, DisagreementCandidate
from crux.services.detection import detection_run
from crux.services.rooms import room_run
from debates.blackboard.assembly import assemble_context
from debates.blackboard.ledger import ledger_update, reflection_due, reflections_generate, round_record_extract
from debates.models import Debate, Event, Message
from debates.orchestrator import results
from debates.orchestrator.messages import debate_totals, turn_pass
from debates.orchestrator.speaking import Speaker, speak
from debates.orchestrator.turn_taking import Seat, choose_speaker
from debates.prompts import ASPECT_PLANNER
from debates.schemas import AspectPlan
from debates.services.events import event_append
from debates.state import EventKind
from faultline.llm import gateway
from faultline.llm.types import CallTag, Prompt, Role

logger = logging.getLogger(__name__)

ROOM_WAIT_SECONDS = 900
DIALOGUE_KINDS = [Message.Kind.KEY_ARGUMENT, Message.Kind.REPLY, Message.Kind.DISMISSAL]


class DebateStopped(Exception):
    pass


def _in_thread(function, **kwargs):
    # Worker threads open their own database connections; close them when done.
    try:
        return function(**kwargs)
    finally:
        connection.close()


class DialogueRun:
    def __init__(self, debate: Debate) -> None:
        self.debate = debate
        participants = list(debate.participants.select_related("persona").order_by("seat"))
        self.speakers = [Speaker(p.persona, p.seat) for p in participants]
        self.by_persona = {s.persona.id: s for s in self.speakers}
        # Side work that must not delay the next speaker: the main channel's ledger updates in
        # order on one thread, the crux rooms' on another (so a speaker waiting for the ledger
        # never queues behind a room's), detection in order on a third (never behind a detection
        # window either), crux rooms in parallel.
        self.ledger = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"ledger-{debate.pk}")
        self.ledger_futures: list[Future] = []
        self.room_ledger = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"room-ledger-{debate.pk}")
        self.room_ledger_futures: list[Future] = []
        self.detector = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"side-{debate.pk}")
        self.rooms = ThreadPoolExecutor(max_workers=4, thread_name_prefix=f"rooms-{debate.pk}")
        self.room_futures: list[Future] = []
        self.detection_futures: list[Future] = []
        # Round records and reflections: notes for later contexts that nobody waits for, not even
        # the closings (only the finish does, so the debate's notes are complete when it ends).
        self.notes = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"notes-{debate.pk}")
        self.note_futures: list[Future] = []

    # ── lifecycle ─────────────────────────────────────────────────────────────────────────────

    def execute(self) -> None:
        # Only persona turns sit on the critical path: the aspect plan is made while the openings
        # stream (openings don't need it) and the evidence ledger while the closings do.
        try:
            self._begin()
            planning = self.detector.submit(_in_thread, self._plan_aspects)
            self._restart_live_rooms()
            self._openings()
            planning.result()
            self._dialogue()
            self._wait_for_side_work()
            evidence = self.detector.submit(_in_thread, results.evidence_ledger, debate=self.debate)
            self._closings()
            self._await_ledger(lag=0, rooms=True)  # the closing stances belong in the final ledger
            self._await_notes()
            self._finish(Debate.Status.COMPLETED, evidence=evidence.result())
        except DebateStopped:
            self._wait_for_side_work(timeout=60)
            self._await_notes()
            self._finish(Debate.Status.STOPPED, evidence=results.evidence_ledger(debate=self.debate))
        finally:
            self.detector.shutdown(wait=False, cancel_futures=True)
            self.ledger.shutdown(wait=False, cancel_futures=True)
            self.room_ledger.shutdown(wait=False, cancel_futures=True)
            self.notes.shutdown(wait=False, cancel_futures=True)
            self.rooms.shutdown(wait=False, cancel_futures=True)

    def _begin(self) -> None:
        debate = self.debate
        with transaction.atomic():
            if not Event.objects.filter(debate=debate, kind=EventKind.DEBATE_STARTED).exists():
                event_append(debate_id=debate.id, kind=EventKind.DEBATE_STARTED, payload={
                    "topic": debate.topic,
                    "mode": debate.mode,
                    "max_turns": debate.max_turns,
                    "provider": debate.provider or settings.FAULTLINE_LLM,
                    "personas": [
                        {"id": s.persona.id, "name": s.persona.name, "seat": s.seat, "tagline": s.persona.tagline}
                        for s in self.speakers
                    ],
                })
            else:
                event_append(debate_id=debate.id, kind=EventKind.DEBATE_RESUMED, payload={"from_seq": debate.last_seq})
            Debate.objects.filter(pk=debate.pk).update(
                status=Debate.Status.RUNNING, failure_reason="",
                started_at=debate.started_at or timezone.now(),
            )
        self.debate.refresh_from_db()

    def _phase(self, phase: str, aspect_index: int | None = None) -> None:
        label = phase if aspect_index is None else f"{phase}:{aspect_index}"
        if self.debate.phase == label:
            return  # already announced before a resume
        with transaction.atomic():
            event_append(debate_id=self.debate.id, kind=EventKind.PHASE_CHANGED,
                         payload={"phase": phase, "aspect_index": aspect_index, "totals": debate_totals(self.debate.id)})
            Debate.objects.filter(pk=self.debate.pk).update(phase=label)
        self.debate.phase = label

    def _check_stop(self) -> None:
        if Debate.objects.filter(pk=self.debate.pk, stop_requested=True).exists():
            raise DebateStopped

    # ── phases ────────────────────────────────────────────────────────────────────────────────

    def _plan_aspects(self) -> None:
        if self.debate.aspects:
            return
        prompt = Prompt(
            system_prefix=ASPECT_PLANNER,
            messages=[{"role": "user", "content": f"Topic: {self.debate.topic}\nParticipants: "
                       + ", ".join(s.name for s in self.speakers)}],
            max_tokens=500,
            temperature=0.3,
        )
        plan = gateway.extract(role=Role.EXTRACTION, prompt=prompt, schema=AspectPlan,
                               tag=CallTag(debate_id=self.debate.id, phase="planning"))
        aspects = [aspect.model_dump() for aspect in plan.aspects]
        with transaction.atomic():
            Debate.objects.filter(pk=self.debate.pk).update(aspects=aspects)
            event_append(debate_id=self.debate.id, kind=EventKind.ASPECTS_SET, payload={"aspects": aspects})
        self.debate.aspects = aspects

    def _main_messages(self, kinds=None):
        messages = Message.objects.filter(debate=self.debate, room__isnull=True)
        return messages.filter(kind__in=kinds) if kinds else messages

    def _next_turn_number(self) -> int:
        return self._main_messages().count() + 1

    def _interrupted(self) -> Message | None:
        return self._main_messages().filter(status=Message.Status.STREAMING).select_related("persona").first()

    def _say(self, speaker: Speaker, kind: str, *, phase: str, aspect_index=None, addressee="", allow_pass=False):
        self._check_stop()
        interrupted = self._interrupted()
        if interrupted is not None and interrupted.persona_id != speaker.persona.id:
            # The cut-off turn belongs to someone else: it is that person's turn, again.
            speaker, kind = self.by_persona[interrupted.persona_id], interrupted.kind
        turn = interrupted.turn if interrupted else self._next_turn_number()
        self._await_ledger(lag=1)
        context = self._context(speaker, kind, aspect_index=aspect_index, addressee=addressee)
        message = speak(debate=self.debate, speaker=speaker, kind=kind, turn=turn, context=context, phase=phase,
                        aspect_index=aspect_index, interrupted=interrupted, allow_pass=allow_pass)
        if message is not None:
            self._ledger(message)
        return message

    def _context(self, speaker: Speaker, kind: str, *, aspect_index, addressee: str) -> str:
        return assemble_context(debate=self.debate, persona=speaker.persona, phase=kind, addressee=addressee,
                                aspect_index=aspect_index)

    def _ledger(self, message: Message) -> None:
        if message.room_id is None:
            self.ledger_futures.append(self.ledger.submit(_in_thread, self._fold_into_ledger, message=message))
        else:
            self.room_ledger_futures.append(self.room_ledger.submit(_in_thread, self._fold_into_ledger, message=message))

    def _fold_into_ledger(self, message: Message) -> None:
        ledger_update(message_id=message.id)
        # A reflection is a second model call: it runs with the other notes, not on the ledger
        # thread the next speaker waits for.
        if not reflection_due(debate_id=self.debate.id):
            return
        try:
            self.note_futures.append(self.notes.submit(
                _in_thread, reflections_generate, debate=self.debate, round_number=(message.aspect_index or 0) + 1))
        except RuntimeError:  # the run is over (a room's last message); the next debate event is none
            logger.info("Reflection for debate %s not scheduled: the run has ended", self.debate.id)

    def _await_ledger(self, lag: int, rooms: bool = False) -> None:
        # The speaker sees the last message verbatim anyway, so its ledger update (still running
        # beside this turn) may lag by one; everything older must be in. Crux rooms' updates are
        # awaited only where the whole ledger is due (the closings).
        futures = self.ledger_futures[: len(self.ledger_futures) - lag]
        for future in futures + (list(self.room_ledger_futures) if rooms else []):
            try:
                future.result()
            except Exception:
                logger.exception("A ledger update of debate %s failed", self.debate.id)

    def _openings(self) -> None:
        self._phase("opening")
        done = set(self._main_messages([Message.Kind.OPENING]).filter(status=Message.Status.COMPLETE)
                   .values_list("persona_id", flat=True))
        for speaker in self.speakers:
            if speaker.persona.id not in done:
                self._say(speaker, Message.Kind.OPENING, phase="opening")

    def _dialogue_slots_used(self) -> int:
        messages = self._main_messages(DIALOGUE_KINDS).filter(status=Message.Status.COMPLETE).count()
        passes = Event.objects.filter(debate=self.debate, kind=EventKind.TURN_PASSED).count()
        return messages + passes

    def _history(self) -> list[tuple[int, str]]:
        return list(self._main_messages().filter(status=Message.Status.COMPLETE).order_by("turn")
                    .values_list("persona_id", "text"))

    def _stakes(self) -> dict[int, float]:
        stakes: dict[int, float] = {}
        for candidate in DisagreementCandidate.objects.filter(debate=self.debate, consecutive_windows__gte=1):
            for persona_id in (candidate.persona_a_id, candidate.persona_b_id):
                stakes[persona_id] = stakes.get(persona_id, 0.0) + candidate.confidence
        return stakes

    def _dialogue(self) -> None:
        total = self.debate.max_turns
        per_aspect = max(1, math.ceil(total / len(self.debate.aspects)))
        seats = [Seat(s.persona.id, s.name, s.seat) for s in self.speakers]
        slot = self._dialogue_slots_used()
        consecutive_passes = 0
        previous_aspect = None
        while slot < total and self._keep_talking():
            aspect_index = min(slot // per_aspect, len(self.debate.aspects) - 1)
            if previous_aspect is not None and aspect_index != previous_aspect:
                self._record_round(previous_aspect)
            previous_aspect = aspect_index
            self._phase("dialogue", aspect_index)
            history = self._history()
            chosen = choose_speaker(seats=seats, history=history, stakes=self._stakes())
            speaker = self.by_persona[chosen.persona_id]
            spoke_on_aspect = self._main_messages(DIALOGUE_KINDS).filter(
                persona=speaker.persona, aspect_index=aspect_index).exists()
            kind = Message.Kind.REPLY if spoke_on_aspect else Message.Kind.KEY_ARGUMENT
            last_name = self.by_persona[history[-1][0]].name if history else ""
            message = self._say(speaker, kind, phase=f"dialogue_{kind}", aspect_index=aspect_index,
                                addressee=last_name, allow_pass=consecutive_passes < len(seats) - 1)
            if message is None:
                turn_pass(debate=self.debate, persona=speaker.persona)
                consecutive_passes += 1
            else:
                consecutive_passes = 0
                self._after_message()
            slot += 1
        if previous_aspect is not None:
            self._record_round(previous_aspect)

    # Hooks for other modes (graph_mode.py): when to stop early, and what runs after each message.
    def _keep_talking(self) -> bool:
        return True

    def _after_message(self) -> None:
        self._schedule_detection()

    def _record_round(self, aspect_index: int) -> None:
        self.note_futures.append(
            self.notes.submit(_in_thread, round_record_extract, debate=self.debate, aspect_index=aspect_index))

    def _await_notes(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        for future in list(self.note_futures):
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
            except Exception:
                logger.exception("A round record or reflection of debate %s failed", self.debate.id)

    # ── side work ─────────────────────────────────────────────────────────────────────────────

    def _schedule_detection(self) -> None:
        every = settings.CRUX_DETECTION_EVERY_MESSAGES
        dialogue = list(self._main_messages(DIALOGUE_KINDS).filter(status=Message.Status.COMPLETE)
                        .order_by("turn").values_list("id", flat=True))
        if not dialogue or len(dialogue) % every:
            return
        window = len(dialogue) // every
        message_ids = dialogue[-settings.CRUX_DETECTION_WINDOW_MESSAGES:]
        self.detection_futures.append(self.detector.submit(self._detect, window, message_ids))

    def _detect(self, window: int, message_ids: list[int]) -> None:
        try:
            for room in detection_run(debate_id=self.debate.id, window=window, message_ids=message_ids):
                self._start_room(room.id)
        except Exception:  # detection is an observer; never let it take the debate down
            logger.exception("Detection window %s of debate %s failed", window, self.debate.id)
        finally:
            connection.close()

    def _start_room(self, room_id: int) -> None:
        self.room_futures.append(self.rooms.submit(_in_thread, room_run, room_id=room_id, after_message=self._ledger))

    def _restart_live_rooms(self) -> None:
        for room_id in CruxRoom.objects.filter(debate=self.debate, status=CruxRoom.Status.LIVE).values_list("id", flat=True):
            self._start_room(room_id)

    def _wait_for_side_work(self, timeout: float = ROOM_WAIT_SECONDS) -> None:
        deadline = time.monotonic() + timeout
        for future in list(self.detection_futures) + list(self.room_futures):
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
            except Exception:
                logger.exception("Side work of debate %s ended with an error", self.debate.id)
        # Rooms opened by the last detections were appended while we waited.
        pending = [f for f in self.room_futures if not f.done()]
        for future in pending:
            try:
                future.result(timeout=max(0.1, deadline - time.monotonic()))
            except Exception:
                logger.exception("Crux room of debate %s ended with an error", self.debate.id)
        close_old_connections()

    def _closings(self) -> None:
        self._phase("closing")
        # The closings read the full ledger: every dialogue and crux-room update is in before the
        # first one; after that each may lag by one closing, which the next speaker sees verbatim.
        self._await_ledger(lag=0, rooms=True)
        done = set(self._main_messages([Message.Kind.CLOSING]).filter(status=Message.Status.COMPLETE)
                   .values_list("persona_id", flat=True))
        for speaker in self.speakers:
            if speaker.persona.id not in done:
                self._say(speaker, Message.Kind.CLOSING, phase="closing")

    def _finish(self, status: str, *, evidence: list[dict]) -> None:
        outcome = results.debate_results(debate=self.debate, evidence_ledger=evidence)
        with transaction.atomic():
            Debate.objects.filter(pk=self.debate.pk).update(
                status=status, phase="done", results=outcome, finished_at=timezone.now()
            )
            event_append(debate_id=self.debate.id, kind=EventKind.DEBATE_FINISHED,
                         payload={"status": status, "results": outcome, "totals": debate_totals(self.debate.id)})
