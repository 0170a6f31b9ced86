"""Debates under faults: a killed worker, a restarted Redis, lost pushes, a 529 storm.

Everything runs as in production, on this machine: the embedded PostgreSQL and Redis, real Celery
worker processes (thread pool) running the real orchestrator, daphne serving the live sockets,
and one plain Python websocket client per debate that behaves like the live page (it takes the
snapshot, follows the events, reports which event it shows every 5 s and reconnects when its
socket closes). Model calls go through the real anthropic SDK to a local fake Messages API
scripted by devtools/scripted_debate.py. Nobody resumes anything by hand: a worker's
recovery sweep (every FAULTLINE_RECOVERY_SWEEP_SECONDS, 2 s here) is the only way back.

Scenarios (each runs --debates debates at once, then checks the database and the clients):

    baseline        no fault: the wall time to compare with
    kill-worker     SIGKILL the worker --kills times at random points of the debates, a new worker after each
    kill-closing    SIGKILL the worker whenever a debate not yet hit is in its "closing" phase
    restart-redis   stop the embedded Redis mid-debate for --redis-down seconds, then start it
    drop-pushes     the worker loses --drop-share of its pushes (benchmarks/faults_worker.py)
    storm-529       the fake API answers 529 to every call for --storm-seconds mid-debate

Checked per debate: events lost (gaps in Event.seq), events missing at the client, duplicate
turns (two messages on one channel turn, a persona's second opening or closing, one message
completed twice, two messages with the same text), finish events (exactly one), turns missing
(gaps in turn numbers, dialogue slots short of max_turns, messages left streaming).

    .venv/bin/python benchmarks/faults.py [--scenarios kill-worker,storm-529] [--debates 3] [--turns 12]

Uses its own embedded PostgreSQL and Redis (.faultline/bench-faults) and stops what it started.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import re
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.children import (  # noqa: E402
    Child,
    embedded_services_running,
    free_port,
    stop_embedded_services_started,
    wait_for_http,
)

os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench-faults"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

from ops import worker_liveness  # noqa: E402

SCENARIOS = ["baseline", "kill-worker", "kill-closing", "restart-redis", "drop-pushes", "storm-529"]
TOPIC = "Is gold still a hedge against inflation?"
SWEEP_SECONDS = 2
REPORT_EVERY = 5.0  # the page's REPORT_EVERY_MS (static/js/faultline.js)
RECONNECT_AFTER = 1.0
SEQ = re.compile(r'id="status-line"[^>]*data-seq="(\d+)"')
DROPPED = re.compile(r"dropped push (\S+) (\d+) (\S+)")


def say(message: str) -> None:
    print(f"[faults {datetime.now(UTC):%H:%M:%S}] {message}", flush=True)


# ── processes ─────────────────────────────────────────────────────────────────────────────────


class Workers:
    """Starts Celery workers one after another (a new one after each kill) and keeps their logs."""

    def __init__(self, env: dict, log_dir: Path, concurrency: int) -> None:
        self.env = env
        self.log_dir = log_dir
        self.concurrency = concurrency
        self.started: list[Child] = []
        self.current: Child | None = None
        self.crashes = 0  # workers that exited by themselves (not killed by us)
        self.replaced = 0  # workers that stopped taking work while still running, replaced at once
        self.heartbeats: dict[Child, Path] = {}

    def start(self, *, label: str, drop_share: float = 0.0, seed: int = 0) -> tuple[Child, float]:
        """A new worker; returns it and how long it took to answer a ping."""
        from faultline.celery import app as celery_app

        number = len(self.started) + 1
        hostname = f"bench-faults-{number}-{os.getpid()}@localhost"
        options = [
            "--pool",
            "threads",
            "--concurrency",
            str(self.concurrency),
            "--loglevel",
            "INFO",
            "--hostname",
            hostname,
        ]
        if drop_share:
            command = [
                sys.executable,
                str(ROOT / "benchmarks" / "faults_worker.py"),
                str(drop_share),
                str(seed),
                "--",
                *options,
            ]
        else:
            command = [sys.executable, "-m", "celery", "-A", "faultline", "worker", *options]
        began = time.monotonic()
        heartbeat = self.log_dir / f"{label}-worker-{number}.heartbeat"
        worker_liveness.heartbeat_forget(heartbeat)
        env = {**self.env, worker_liveness.HEARTBEAT_ENV: str(heartbeat)}
        child = Child(f"{label}-worker-{number}", command, env, self.log_dir)
        self.heartbeats[child] = heartbeat
        self.started.append(child)
        self.current = child
        deadline = time.monotonic() + 90
        while True:
            try:
                if celery_app.control.ping(destination=[hostname], timeout=1):
                    break
            except Exception:  # Redis down for the moment: keep asking
                time.sleep(0.5)
            if not child.running() or time.monotonic() > deadline:
                raise RuntimeError(f"the Celery worker did not start; see {child.log_path}")
        return child, time.monotonic() - began

    def supervise(self, *, label: str, **kwargs) -> None:
        """Like the launcher: a worker that exited by itself is replaced (and counted), and so is
        one that stopped taking work (ops/worker_liveness.py), at once, the old one left to
        finish its debates."""
        if self.current is None:
            return
        if not self.current.running():
            self.crashes += 1
            say(f"{label}: the worker exited by itself (see {self.current.log_path}); starting another")
            self.start(label=label, **kwargs)
        elif worker_liveness.worker_state(self.heartbeats[self.current]) in (
            worker_liveness.STOPPING,
            worker_liveness.SILENT,
        ):
            self.replaced += 1
            say(f"{label}: the worker stopped taking work (see {self.current.log_path}); starting another beside it")
            self.start(label=label, **kwargs)

    def stop_all(self) -> None:
        for child in self.started:
            child.stop()
        self.current = None


# ── the fake model, with a storm switch ───────────────────────────────────────────────────────


class Model:
    def __init__(self, script) -> None:
        self.script = script
        self.storm_until = 0.0
        self.storm_answers = 0
        self._lock = threading.Lock()

    def storm(self, seconds: float) -> None:
        self.storm_until = time.monotonic() + seconds

    def respond(self, body: dict, call):
        from devtools.fake_messages_api import Reply

        if time.monotonic() < self.storm_until:
            with self._lock:
                self.storm_answers += 1
            return Reply.overloaded()
        return self.script.respond(body, call)


# ── plain websocket clients that behave like the live page ────────────────────────────────────


@dataclass
class ClientState:
    covered: set = field(default_factory=set)  # seqs this client has, from events or snapshots
    shown: int = 0  # what the page's status line would say
    connects: int = 0
    snapshots: int = 0


class Clients:
    """One client per debate, on an event loop and thread of their own. Like the page: every
    (re)connect brings a snapshot (events 1..n); each event fragment carries its seq on the status
    line; every REPORT_EVERY seconds it sends {"seq": shown}; a closed socket is reopened."""

    def __init__(self, ws_base: str, headers: dict) -> None:
        self.ws_base = ws_base
        self.headers = headers
        self.state: dict[str, ClientState] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="clients", daemon=True)
        self.thread.start()
        self.tasks: list[asyncio.Task] = []

    def watch(self, debate_ids: list[str]) -> None:
        async def start():
            for debate_id in debate_ids:
                self.state[debate_id] = ClientState()
                self.tasks.append(asyncio.ensure_future(self._watch(debate_id)))

        asyncio.run_coroutine_threadsafe(start(), self.loop).result(10)
        deadline = time.monotonic() + 30
        while not all(self.state[d].snapshots for d in debate_ids):
            if time.monotonic() > deadline:
                raise RuntimeError("the websocket clients did not get their snapshots")
            time.sleep(0.1)

    async def _watch(self, debate_id: str) -> None:
        from websockets.asyncio.client import connect

        state = self.state[debate_id]
        while True:
            try:
                async with connect(
                    f"{self.ws_base}/ws/debates/{debate_id}/",
                    additional_headers=self.headers,
                    max_size=None,
                    open_timeout=10,
                ) as sock:
                    state.connects += 1
                    reporter = asyncio.ensure_future(self._report(sock, state))
                    try:
                        async for frame in sock:
                            self._read(state, frame)
                    finally:
                        reporter.cancel()
            except asyncio.CancelledError:
                raise
            except Exception:
                pass  # refused or dropped: try again, as the page's websocket extension does
            await asyncio.sleep(RECONNECT_AFTER)

    @staticmethod
    def _read(state: ClientState, frame) -> None:
        if not isinstance(frame, str):
            return
        match = SEQ.search(frame)
        if not match:
            return
        seq = int(match.group(1))
        if 'id="chat-log"' in frame:  # a snapshot: everything up to seq
            state.snapshots += 1
            state.covered.update(range(1, seq + 1))
        else:
            state.covered.add(seq)
        state.shown = max(state.shown, seq)

    @staticmethod
    async def _report(sock, state: ClientState) -> None:
        while True:
            await asyncio.sleep(REPORT_EVERY)
            await sock.send(json.dumps({"seq": state.shown}))

    def missing(self, debate_id: str, last_seq: int) -> list[int]:
        return sorted(set(range(1, last_seq + 1)) - self.state[debate_id].covered)

    def close(self) -> None:
        async def stop():
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


# ── helpers ───────────────────────────────────────────────────────────────────────────────────


def _db(function):
    """ORM work from this process, surviving a connection the database or a fault closed."""
    from django.db import close_old_connections

    close_old_connections()
    return function()


def unfinished(debate_ids: list[str]) -> list:
    from debates.models import Debate

    return _db(
        lambda: list(
            Debate.objects.filter(id__in=debate_ids)
            .exclude(status__in=Debate.FINISHED)
            .values_list("id", "status", "phase")
        )
    )


def phases(debate_ids: list[str]) -> str:
    from debates.models import Debate

    rows = _db(lambda: list(Debate.objects.filter(id__in=debate_ids).values_list("status", "phase")))
    return ", ".join(f"{phase or status}" if status == "running" else status for status, phase in rows)


def pause(seconds: float, debate_ids: list[str], workers: Workers, label: str, **worker_kwargs) -> bool:
    """Sleep, replacing a worker that died by itself; False as soon as every debate finished."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        workers.supervise(label=label, **worker_kwargs)
        if not unfinished(debate_ids):
            return False
        time.sleep(min(0.25, max(0.0, deadline - time.monotonic())))
    return True


# ── the faults ────────────────────────────────────────────────────────────────────────────────


def fault_none(ctx) -> dict:
    return {"faults": "none"}


def fault_kill_worker(ctx) -> dict:
    """Kills at random points of the debates: once the furthest debate has said a random number of
    main-channel turns (drawn without repeats across openings, dialogue and closings), plus a
    random fraction of a turn, so a kill may land mid-stream or between turns."""
    from debates.models import Message

    args, ids, workers, rng = ctx["args"], ctx["ids"], ctx["workers"], ctx["rng"]
    main_turns = 3 + args.turns + 3
    targets = sorted(rng.sample(range(1, main_turns), min(args.kills, main_turns - 1)))
    kills, boots = [], []
    for target in targets:
        while True:
            said = _db(
                lambda: Counter(
                    Message.objects.filter(debate_id__in=ids, room__isnull=True, status="complete").values_list(
                        "debate_id", flat=True
                    )
                )
            )
            if max(said.values(), default=0) >= target or not pause(0.1, ids, workers, ctx["label"]):
                break
        if not pause(rng.uniform(0, 1.0), ids, workers, ctx["label"]):
            break
        at, where = time.time(), phases(ids)
        workers.current.kill()
        kills.append(at)
        say(f"{ctx['label']}: SIGKILL #{len(kills)} of the worker after turn {target}; debates were at: {where}")
        _, boot = workers.start(label=ctx["label"])
        boots.append(boot)
    return {
        "faults": f"{len(kills)} × SIGKILL (after turns {', '.join(map(str, targets[: len(kills)]))} of {main_turns})",
        "back_from": kills,
        "boots": boots,
    }


def fault_kill_closing(ctx) -> dict:
    """Kill #k lands on a debate in its closings with at least k closing statements said (1, 2, 3,
    then 1 again...): between two closings, and between the last closing and the finish."""
    from debates.models import Debate, Message

    args, ids, workers = ctx["args"], ctx["ids"], ctx["workers"]
    hit, kills, boots, landed = set(), [], [], []
    deadline = time.monotonic() + args.timeout
    while time.monotonic() < deadline:
        workers.supervise(label=ctx["label"])
        rows = _db(lambda: list(Debate.objects.filter(id__in=ids).values_list("id", "status", "phase")))
        if all(status in Debate.FINISHED or str(i) in hit for i, status, _ in rows):
            break
        target = len(kills) % 3 + 1
        closing = [
            str(i) for i, status, phase in rows if status == "running" and phase == "closing" and str(i) not in hit
        ]
        said = _db(
            lambda closing=closing: Counter(
                str(d)
                for d in Message.objects.filter(
                    debate_id__in=closing, room__isnull=True, kind="closing", status="complete"
                ).values_list("debate_id", flat=True)
            )
        )
        ready = [d for d in closing if said[d] >= target]
        if ready:
            at = time.time()
            workers.current.kill()
            kills.append(at)
            landed.append(said[ready[0]])
            hit.update(ready)
            say(
                f"{ctx['label']}: SIGKILL #{len(kills)} with {len(ready)} debate(s) in their closings, "
                f"{said[ready[0]]} closing statement(s) said"
            )
            _, boot = workers.start(label=ctx["label"])
            boots.append(boot)
        time.sleep(0.05)
    return {
        "faults": f"{len(kills)} × SIGKILL in closings, after {'/'.join(map(str, landed))} of 3 closings "
        f"({len(hit)}/{len(ids)} debates hit)",
        "back_from": kills,
        "boots": boots,
        "hit": len(hit),
    }


def fault_restart_redis(ctx) -> dict:
    from ops import embedded

    args, ids, workers = ctx["args"], ctx["ids"], ctx["workers"]
    if not pause(args.redis_after, ids, workers, ctx["label"]):
        return {"faults": "none (the debates finished first)"}
    where = phases(ids)
    queued = _redis_llen("celery")
    began = time.time()
    embedded.redis_stop()
    say(f"{ctx['label']}: Redis stopped (SHUTDOWN SAVE); debates were at: {where}; {queued} task(s) queued")
    time.sleep(args.redis_down)  # no supervision while Redis is down: a worker cannot start anyway
    embedded.redis_url()
    down = time.time() - began
    say(f"{ctx['label']}: Redis started again after {down:.1f} s; {_redis_llen('celery')} task(s) queued")
    # Is the queue still served? One more debate, queued once Redis is back: how long until a
    # worker starts it (the wait loop counts it with the others).
    late = ctx["queue_debate"]()
    ids.append(late)
    return {"faults": f"Redis down {down:.0f} s", "back_from": [began + down], "late": (late, time.time())}


def _redis_llen(key: str) -> int | str:
    import redis
    from django.conf import settings

    try:
        return redis.Redis.from_url(settings.REDIS_URL).llen(key)
    except Exception:
        return "?"


def fault_drop_pushes(ctx) -> dict:
    return {"faults": f"{ctx['args'].drop_share:.0%} of pushes dropped"}


def fault_storm(ctx) -> dict:
    args, ids, workers, model = ctx["args"], ctx["ids"], ctx["workers"], ctx["model"]
    if not pause(args.storm_after, ids, workers, ctx["label"]):
        return {"faults": "none (the debates finished first)"}
    say(f"{ctx['label']}: 529 storm for {args.storm_seconds:.0f} s; debates were at: {phases(ids)}")
    began, before = time.time(), model.storm_answers
    model.storm(args.storm_seconds)
    pause(args.storm_seconds, ids, workers, ctx["label"])
    ended = time.time()
    answers = model.storm_answers - before
    say(f"{ctx['label']}: the storm is over ({answers} calls answered 529); debates at: {phases(ids)}")
    return {
        "faults": f"529 for {args.storm_seconds:.0f} s ({answers} calls)",
        "back_from": [ended],
        "storm": (began, ended),
    }


FAULTS = {
    "baseline": fault_none,
    "kill-worker": fault_kill_worker,
    "kill-closing": fault_kill_closing,
    "restart-redis": fault_restart_redis,
    "drop-pushes": fault_drop_pushes,
    "storm-529": fault_storm,
}


# ── checks ────────────────────────────────────────────────────────────────────────────────────


def check_debate(debate_id: str) -> dict:
    """What the database says about one debate: lost events, duplicate and missing turns."""
    from debates.models import Debate, Event, Message
    from debates.payloads import EventKind
    from debates.turns import DIALOGUE_KINDS

    debate = Debate.objects.get(pk=debate_id)
    events = list(Event.objects.filter(debate=debate).values_list("seq", "kind", "payload", "created_at"))
    seqs = [seq for seq, *_ in events]
    kinds = Counter(kind for _, kind, *_ in events)
    completed = Counter(payload["message_id"] for _, kind, payload, _ in events if kind == EventKind.MESSAGE_COMPLETED)
    messages = list(
        Message.objects.filter(debate=debate).values_list("room_id", "turn", "kind", "persona_id", "status", "text")
    )
    personas = debate.participants.count()
    main = [m for m in messages if m[0] is None]
    per_channel = Counter((room, turn) for room, turn, *_ in messages)
    turns_by_channel: dict = {}
    for room, turn, *_ in messages:
        turns_by_channel.setdefault(room, set()).add(turn)
    turn_gaps = sum(len(set(range(1, max(t) + 1)) - t) for t in turns_by_channel.values())
    openings = Counter(p for _, _, kind, p, status, _ in main if kind == "opening")
    closings = Counter(p for _, _, kind, p, status, _ in main if kind == "closing")
    texts = Counter(text for *_, status, text in messages if status == "complete" and text)
    dialogue_slots = (
        sum(1 for _, _, kind, _, status, _ in main if kind in DIALOGUE_KINDS and status == "complete")
        + kinds[EventKind.TURN_PASSED]
    )
    completed_ok = debate.status == Debate.Status.COMPLETED
    return {
        "status": debate.status,
        "failure": debate.failure_reason,
        "last_seq": debate.last_seq,
        "events_lost": len(set(range(1, debate.last_seq + 1)) - set(seqs)) + (len(seqs) - len(set(seqs))),
        "finish_events": kinds[EventKind.DEBATE_FINISHED],
        "failed_events": kinds[EventKind.DEBATE_FAILED],
        "resumes": kinds[EventKind.DEBATE_RESUMED],
        "resumed_at": [at.timestamp() for _, kind, _, at in events if kind == EventKind.DEBATE_RESUMED],
        "model_waits": kinds[EventKind.MODEL_WAITING],
        "ledger_updates": kinds[EventKind.LEDGER_UPDATED],
        "recoveries": debate.recoveries,
        "dup_channel_turns": sum(c - 1 for c in per_channel.values() if c > 1),
        "dup_openings": sum(c - 1 for c in openings.values() if c > 1),
        "dup_closings": sum(c - 1 for c in closings.values() if c > 1),
        "dup_completions": sum(c - 1 for c in completed.values() if c > 1),
        "dup_texts": sum(c - 1 for c in texts.values() if c > 1),
        "turn_gaps": turn_gaps,
        "missing_openings": (personas - len(openings)) if completed_ok else 0,
        "missing_closings": (personas - len(closings)) if completed_ok else 0,
        "dialogue_short": max(0, debate.max_turns - dialogue_slots) if completed_ok else 0,
        "left_streaming": sum(1 for m in messages if m[4] == "streaming") if debate.status in Debate.FINISHED else 0,
        "messages": len(messages),
        "started_at": debate.started_at,
        "finished_at": debate.finished_at,
    }


# ── one scenario ──────────────────────────────────────────────────────────────────────────────


def run_scenario(name: str, ctx: dict) -> dict:
    from celery import current_app

    from debates.models import Debate
    from debates.services.lifecycle import RUN_DEBATE_TASK, debate_create
    from personas.models import Deck

    args, workers, clients = ctx["args"], ctx["workers"], ctx["clients"]
    rng = random.Random(f"{args.seed}-{name}")
    label = name
    worker_kwargs = {"drop_share": args.drop_share, "seed": args.seed} if name == "drop-pushes" else {}
    _, boot = workers.start(label=label, **worker_kwargs)
    drop_worker = workers.current

    deck = Deck.objects.get(slug="money-and-markets")
    hand = list(deck.personas.order_by("name")[:3])
    ids = [
        str(debate_create(owner=ctx["owner"], topic=TOPIC, personas=hand, deck=deck, max_turns=args.turns).id)
        for _ in range(args.debates)
    ]
    clients.watch(ids)
    say(f"{label}: worker up in {boot:.1f} s, {len(ids)} clients connected; queueing {len(ids)} debates")
    began = time.time()
    for debate_id in ids:
        current_app.send_task(RUN_DEBATE_TASK, args=[debate_id])

    def queue_debate() -> str:
        debate_id = str(
            _db(
                lambda: debate_create(owner=ctx["owner"], topic=TOPIC, personas=hand, deck=deck, max_turns=args.turns)
            ).id
        )
        clients.watch([debate_id])
        current_app.send_task(RUN_DEBATE_TASK, args=[debate_id])
        return debate_id

    fault = FAULTS[name]({**ctx, "ids": ids, "rng": rng, "label": label, "queue_debate": queue_debate})

    deadline = time.monotonic() + args.timeout
    last_note = time.monotonic()
    while unfinished(ids) and time.monotonic() < deadline:
        workers.supervise(label=label, **worker_kwargs)
        time.sleep(0.25)
        if time.monotonic() - last_note > 20:
            say(f"{label}: after {time.time() - began:.0f} s: {phases(ids)}")
            last_note = time.monotonic()
    left = unfinished(ids)
    if left:
        say(f"{label}: {len(left)} debate(s) not finished after {args.timeout:.0f} s: {left}")

    # The clients' last events may still be on their way, or lost and waiting for the next report
    # (every 5 s; an event counts as lost 2 s after it was persisted).
    last_seqs = {str(k): v for k, v in _db(lambda: Debate.objects.filter(id__in=ids).values_list("id", "last_seq"))}
    settle = time.monotonic() + 3 * REPORT_EVERY + 5
    while time.monotonic() < settle and any(clients.missing(d, last_seqs[d]) for d in ids):
        time.sleep(0.2)

    checks = {d: _db(lambda d=d: check_debate(d)) for d in ids}
    client_missing = {d: clients.missing(d, checks[d]["last_seq"]) for d in ids}
    dropped = []
    if name == "drop-pushes":
        drop_worker.log.flush()
        for child in workers.started:
            if child.name.startswith(label):
                # Celery logs the wrapper's prints: "[time: WARNING/MainProcess] dropped push ID SEQ KIND"
                for debate_id, seq, kind in DROPPED.findall(Path(child.log_path).read_text(errors="replace")):
                    if debate_id in ids:
                        dropped.append((debate_id, int(seq), kind))

    # Leave nothing behind for the next scenario: stop the workers; give up on what did not finish.
    _db(lambda: Debate.objects.filter(id__in=ids).exclude(status__in=Debate.FINISHED).update(stop_requested=True))
    workers.stop_all()
    _db(
        lambda: (
            Debate.objects.filter(id__in=ids)
            .exclude(status__in=Debate.FINISHED)
            .update(status=Debate.Status.FAILED, failure_reason="benchmark: gave up waiting")
        )
    )

    finished_at = [c["finished_at"].timestamp() for c in checks.values() if c["finished_at"]]
    wall = (max(finished_at) if finished_at and not left else time.time()) - began
    # Back after the fault: from each kill (or the storm's end) to the next debate_resumed of each debate.
    recover = []
    for c in checks.values():
        for moment in fault.get("back_from", []):
            after = [at for at in c["resumed_at"] if at >= moment]
            if after:
                recover.append(min(after) - moment)
    result = {
        "name": name,
        "fault": fault,
        "debates": len(ids),
        "wall": wall,
        "statuses": Counter(c["status"] for c in checks.values()),
        "finished": sum(1 for c in checks.values() if c["status"] == "completed"),
        "checks": checks,
        "client_missing": client_missing,
        "client_resyncs": sum(max(0, clients.state[d].snapshots - clients.state[d].connects) for d in ids),
        "client_reconnects": sum(clients.state[d].connects - 1 for d in ids),
        "dropped": dropped,
        "dropped_last": sum(1 for d, seq, _ in dropped if seq == checks[d]["last_seq"]),
        "worker_crashes": workers.crashes,
        "workers_replaced": workers.replaced,
        "recover": recover,
        "late": fault.get("late"),
    }
    workers.crashes = workers.replaced = 0
    say(summary_line(result))
    for d, c in checks.items():
        if c["status"] != "completed":
            say(f"{label}: debate {d} ended {c['status']}: {c['failure']}")
    return result


def total(result: dict, key: str) -> int:
    return sum(c[key] for c in result["checks"].values())


def duplicates(result: dict) -> int:
    return sum(
        total(result, k) for k in ("dup_channel_turns", "dup_openings", "dup_closings", "dup_completions", "dup_texts")
    )


def missing_turns(result: dict) -> int:
    return sum(
        total(result, k)
        for k in ("turn_gaps", "missing_openings", "missing_closings", "dialogue_short", "left_streaming")
    )


def extra_finishes(result: dict) -> int:
    return sum(abs(c["finish_events"] - 1) for c in result["checks"].values())


def summary_line(r: dict) -> str:
    client_missing = sum(len(m) for m in r["client_missing"].values())
    return (
        f"{r['name']}: {r['fault']['faults']}; finished {r['finished']}/{r['debates']} "
        f"{dict(r['statuses'])}; wall {r['wall']:.1f} s; events lost {total(r, 'events_lost')}; "
        f"missing at the client {client_missing}; duplicate turns {duplicates(r)}; turns missing "
        f"{missing_turns(r)}; finish events off by {extra_finishes(r)}; resumes {total(r, 'resumes')}; "
        f"client resyncs {r['client_resyncs']}, reconnects {r['client_reconnects']}"
        + (f"; pushes dropped {len(r['dropped'])}" if r["name"] == "drop-pushes" else "")
        + (f"; worker crashes {r['worker_crashes']}" if r["worker_crashes"] else "")
    )


def report(results: list[dict]) -> str:
    lines = [
        "| scenario | fault injected | finished | wall | events lost (log) | missing at client | duplicate turns "
        "| turns missing | finish events | resumes | back after fault | client resyncs / reconnects |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        finishes = Counter(c["finish_events"] for c in r["checks"].values())
        finish_cell = ", ".join(f"{n}×{k}" for k, n in sorted(finishes.items()))
        back = f"{max(r['recover']):.1f} s" if r["recover"] else "-"
        fault = r["fault"]["faults"] + (f" ({len(r['dropped'])})" if r["name"] == "drop-pushes" else "")
        lines.append(
            f"| {r['name']} | {fault} | {r['finished']}/{r['debates']} | {r['wall']:.1f} s "
            f"| {total(r, 'events_lost')} | {sum(len(m) for m in r['client_missing'].values())} | {duplicates(r)} "
            f"| {missing_turns(r)} | {finish_cell} | {total(r, 'resumes')} | {back} "
            f"| {r['client_resyncs']} / {r['client_reconnects']} |"
        )
    lines.append("")
    lines.append(
        "finish events: debates × debate_finished events each (3×1: three debates, one each). "
        "back after fault: longest time from a kill, or the storm's end, to that debate's next "
        "debate_resumed event."
    )
    for r in results:
        boots = r["fault"].get("boots")
        extra = []
        if boots:
            extra.append(f"new worker up in {statistics.median(boots):.1f} s (median of {len(boots)})")
        waits = total(r, "model_waits")
        if waits:
            extra.append(f"{waits} model_waiting events")
        if r["late"]:
            late_id, queued_at = r["late"]
            started = r["checks"][late_id]["started_at"]
            extra.append(
                "a debate queued after Redis came back started "
                + (f"{started.timestamp() - queued_at:.1f} s later" if started else "never")
            )
        if r["name"] == "drop-pushes":
            extra.append(f"{len(r['dropped'])} pushes dropped, {r['dropped_last']} of them a debate's last event")
        if r["worker_crashes"]:
            extra.append(f"{r['worker_crashes']} worker(s) exited by themselves and were replaced")
        if r["workers_replaced"]:
            extra.append(f"{r['workers_replaced']} worker(s) stopped taking work and were replaced at once")
        messages = [c["messages"] for c in r["checks"].values()]
        extra.append(
            f"{sum(messages)} messages, {total(r, 'ledger_updates')} ledger updates, "
            f"{sum(c['last_seq'] for c in r['checks'].values())} events"
        )
        lines.append(f"- {r['name']}: " + "; ".join(extra))
    return "\n".join(lines)


# ── main ──────────────────────────────────────────────────────────────────────────────────────


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scenarios", default=",".join(SCENARIOS), help=f"comma-separated, from: {', '.join(SCENARIOS)}"
    )
    parser.add_argument("--debates", type=int, default=3, help="debates run at once in each scenario")
    parser.add_argument("--turns", type=int, default=12, help="dialogue turns per debate")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds before every fake model call answers")
    parser.add_argument(
        "--chunk-delay",
        type=float,
        default=0.05,
        help="seconds between streamed 12-character deltas (0.05: about 60 tokens/s)",
    )
    parser.add_argument("--kills", type=int, default=3, help="kill-worker: how many SIGKILLs")
    parser.add_argument("--redis-after", type=float, default=4.0, help="restart-redis: s after queueing")
    parser.add_argument("--redis-down", type=float, default=5.0, help="restart-redis: s without Redis")
    parser.add_argument("--drop-share", type=float, default=0.1, help="drop-pushes: share of pushes lost")
    parser.add_argument("--storm-after", type=float, default=4.0, help="storm-529: s after queueing")
    parser.add_argument("--storm-seconds", type=float, default=60.0, help="storm-529: how long every call gets 529")
    parser.add_argument("--timeout", type=float, default=420, help="s to wait for a scenario's debates")
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args()
    chosen = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s) {', '.join(unknown)}; pick from {', '.join(SCENARIOS)}")
    if "restart-redis" in chosen and os.environ.get("REDIS_URL"):
        parser.error("restart-redis stops and starts the embedded Redis: run it without REDIS_URL")

    signal.signal(signal.SIGTERM, _interrupt)
    from ops import embedded

    had = embedded_services_running()
    daphne = api = clients = workers = None
    try:
        import django
        import redis

        django.setup()
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.test import Client

        from debates.models import Debate
        from devtools.fake_messages_api import FakeMessagesAPI
        from devtools.scripted_debate import DebateScript
        from faultline.celery import app as celery_app

        call_command("migrate", verbosity=0)
        call_command("loadseed", verbosity=0)
        owner, _ = get_user_model().objects.get_or_create(username="bench-faults")
        # An interrupted earlier run may have left debates and tasks behind: they must not run
        # beside ours (a sweep would pick them up).
        Debate.objects.exclude(status__in=Debate.FINISHED).update(
            status=Debate.Status.FAILED, failure_reason="benchmark: left by an earlier run"
        )
        celery_app.control.purge()
        redis.Redis.from_url(settings.REDIS_URL).delete("unacked", "unacked_index")

        script = DebateScript(
            dispute="persistent", surface_after=4, latency=args.latency, chunk_size=12, chunk_delay=args.chunk_delay
        )
        model = Model(script)
        api = FakeMessagesAPI(responder=model.respond).start()
        api._server.handle_error = lambda request, address: None  # a killed worker's cut-off call is expected
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": settings.DATABASE_URL,
            "REDIS_URL": settings.REDIS_URL,
            "FAULTLINE_LLM": "anthropic",
            "ANTHROPIC_API_KEY": "bench",
            "ANTHROPIC_BASE_URL": api.url,
            "FAULTLINE_RECOVERY_SWEEP_SECONDS": str(SWEEP_SECONDS),
        }
        log_dir = embedded.state_dir() / "logs"
        log_dir.mkdir(exist_ok=True)
        for old_log in log_dir.glob("*.log"):  # this run's logs only (worker numbers start again at 1)
            old_log.unlink()
        port = free_port()
        daphne = Child(
            "daphne",
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "faultline.asgi:application"],
            env,
            log_dir,
        )
        base_url = f"http://127.0.0.1:{port}"
        wait_for_http(base_url + "/accounts/login/", daphne)
        browser = Client()
        browser.force_login(owner)
        cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
        clients = Clients(base_url.replace("http", "ws", 1), {"Cookie": cookie, "Origin": base_url})
        workers = Workers(env, log_dir, concurrency=args.debates + 2)
        say(
            f"daphne on {base_url}, fake Messages API at {api.url} ({args.latency} s per call, "
            f"12-char deltas every {args.chunk_delay} s); logs in {log_dir}"
        )

        ctx = {"args": args, "workers": workers, "clients": clients, "model": model, "owner": owner}
        results = []
        started = time.time()
        for name in chosen:
            results.append(run_scenario(name, ctx))
        print()
        load = os.getloadavg()
        print(
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, "
            f"{platform.python_implementation()} {platform.python_version()}, load average now {load[0]:.2f}; "
            f"{time.time() - started:.0f} s in all; command: {' '.join(sys.argv)}"
        )
        print(
            f"{args.debates} debates per scenario, {args.turns} dialogue turns, fake model {args.latency} s "
            f"to first byte, deltas every {args.chunk_delay} s; sweep every {SWEEP_SECONDS} s; seed {args.seed}"
        )
        print(report(results))
    finally:
        if clients is not None:
            clients.close()
        if workers is not None:
            workers.stop_all()
        if daphne is not None:
            daphne.stop()
        if api is not None:
            api.stop()
        stopped = stop_embedded_services_started(had)
        if stopped:
            say("stopped the embedded " + " and ".join(stopped))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        say("interrupted; everything this run started is stopped")
        sys.exit(130)
