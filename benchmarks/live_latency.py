"""Delay from a persisted event to the browser's DOM, with many debates live at once.

Everything runs as in production, on this machine: the embedded PostgreSQL and Redis, a Celery
worker running the real orchestrator, daphne serving the live pages, and headless chromium with
one page per debate. Model calls go through the real anthropic SDK to a local fake Messages API
that answers every call after a fixed latency and streams its text (devtools/scripted_debate.py).

Each page records, in a MutationObserver, when a fragment carrying an event's sequence number
landed in its DOM (the status line every event redraws carries ``data-seq``). That moment is
joined to the event row's ``created_at``: Django sets it in the worker just before the INSERT,
so it is the moment of persisting (the commit follows at once). Both clocks are this machine's.

A listener of the benchmark's own on the announcements PostgreSQL delivers at commit (LISTEN, as
each web process's feed does: debates/event_feed.py) splits the delay in two:

    persisted -> published   the worker's INSERT (with its NOTIFY) and COMMIT, PostgreSQL
                             delivering the notification to a listener
    published -> DOM         daphne's feed hearing it, folding and rendering it once, every
                             socket, the page's main thread getting to the message and htmx
                             swapping it in

With --plain-client a bare Python websocket client watches every debate beside its page, so
published -> received (by that client) is the server's share of the second stage, and
persisted -> received the whole server side, without a browser's; it doubles what daphne sends,
so the headline figures are taken without it.

The baseline (1 debate) and the loaded run (--debates, default 10) run one after the other
against the same services, so their figures sit side by side; --runs repeats the pair and pools
every event of every run in the table, with each run's own p50 and p95 below it.

    .venv/bin/python benchmarks/live_latency.py [--debates 10] [--baseline 1] [--latency 0.2] [--turns 30]
                                                [--runs 1] [--workers 1] [--plain-client] [--reduced-motion]
                                                [--browser-nice 10] [--dump moments.json]

Uses its own embedded PostgreSQL and Redis (.faultline/bench-live) unless DATABASE_URL/REDIS_URL
are set, and stops whatever it started, on errors and Ctrl-C too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.children import (  # noqa: E402
    Child,
    embedded_services_running,
    stop_embedded_services_started,
    wait_for_http,
)

os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench-live"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PASSWORD = "a-long-benchmark-passphrase-42"
TOPIC = "Is gold still a hedge against inflation?"

# Runs in every page before its own scripts. An event's fragment is swapped in by the htmx ws
# extension in one task; the observer's callback runs right after it, so its clock reading is
# the moment the update is in the DOM. The first landing of each seq counts.
RECORDER = """
window.__landed = {};
window.__opens = 0;
window.__snapshots = 0;  // the loaded page's and one per (re)connect; more: the server resynced the page
document.addEventListener("htmx:wsOpen", () => { window.__opens += 1; });
new MutationObserver((mutations) => {
  const now = performance.timeOrigin + performance.now();
  for (const mutation of mutations) {
    for (const node of mutation.addedNodes) {
      if (node.nodeType === 1 && node.id === "chat-log") window.__snapshots += 1;
      if (node.nodeType === 1 && node.id === "status-line" && node.dataset.seq && !(node.dataset.seq in window.__landed)) {
        window.__landed[node.dataset.seq] = now;
      }
    }
  }
}).observe(document, {childList: true, subtree: true});
"""

KIND_GROUPS = {
    "message_started": "message started",
    "message_completed": "message completed",
    "ledger_updated": "ledger updated",
    "room_opened": "room / card",
    "room_closed": "room / card",
    "card_posted": "room / card",
}
GROUP_ORDER = ["all events", "message started", "message completed", "ledger updated", "room / card", "other"]


PAGE_METRICS = [
    "TaskDuration",
    "ScriptDuration",
    "RecalcStyleDuration",
    "LayoutDuration",
    "TaskOtherDuration",
    "RecalcStyleCount",
    "LayoutCount",
]


def _page_metrics(session) -> dict[str, float]:
    """Chrome DevTools' Performance metrics of one page (durations in seconds)."""
    return {m["name"]: m["value"] for m in session.send("Performance.getMetrics")["metrics"]}


def say(message: str) -> None:
    print(f"[bench] {message}", flush=True)


def percentile(values: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "max": max(values) if values else math.nan,
        "min": min(values) if values else math.nan,
    }


# ── processes ─────────────────────────────────────────────────────────────────────────────────


def _child_pids(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _process_tree(pid: int, exclude: frozenset[int]) -> tuple[list[int], dict[int, list[str]]]:
    """The pids of a process and its live descendants, leaving out the trees of the excluded pids,
    and every process's /proc/<pid>/stat fields."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
    children = defaultdict(list)
    for child, fields in stats.items():
        children[int(fields[1])].append(child)
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        if current in exclude:
            continue
        found.append(current)
        todo.extend(children[current])
    return found, stats


def cpu_seconds(pid: int, exclude: frozenset[int] = frozenset()) -> float:
    """User + system CPU of a process and its live descendants (reaped children included),
    leaving out the trees of the excluded pids."""
    tree, stats = _process_tree(pid, exclude)
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(sum(int(f) for f in stats[p][11:15]) for p in tree if p in stats) / ticks


def wait_seconds(pid: int, exclude: frozenset[int] = frozenset()) -> float:
    """Time the live threads of a process and its live descendants spent runnable but waiting for
    a CPU (/proc/<pid>/task/<tid>/schedstat), leaving out the trees of the excluded pids."""
    total = 0
    for process in _process_tree(pid, exclude)[0]:
        try:  # a process that ended since the tree was read (a database backend closing) counts nothing
            tasks = list(Path(f"/proc/{process}/task").glob("*/schedstat"))
        except OSError:
            continue
        for task in tasks:
            try:
                total += int(task.read_text().split()[1])
            except (OSError, IndexError, ValueError):
                continue
    return total / 1e9


# ── taps: when each event was announced, and when a plain client got its fragment ──────────────

SEQ = re.compile(r'id="status-line"[^>]*data-seq="(\d+)"')


class Taps:
    """Listens, from a thread and event loop of its own, to the announcements of the debates'
    events (published) and, with --plain-client, on a websocket per debate opened by a bare
    Python client (received), beside the browser's."""

    def __init__(self) -> None:
        self.published: dict[tuple[str, int], float] = {}
        self.received: dict[tuple[str, int], float] = {}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="taps", daemon=True)
        self.thread.start()
        self.listener = None
        self.watched: set[str] = set()
        self.tasks = []

    def record(self, moment: str, debate_id: str, seq: int, at: float) -> None:
        getattr(self, moment).setdefault((debate_id, seq), at)

    def _call(self, coroutine, timeout: float = 30):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def watch(self, debate_ids: list[str], *, ws_base: str | None = None, headers: dict | None = None) -> None:
        async def start():
            from websockets.asyncio.client import connect

            if self.listener is None:
                self.listener = await self._listen()
            for debate_id in debate_ids:
                self.watched.add(debate_id)
                if ws_base:
                    socket = await connect(
                        f"{ws_base}/ws/debates/{debate_id}/", additional_headers=headers, max_size=None
                    )
                    await socket.recv()  # the snapshot
                    self.tasks.append(asyncio.ensure_future(self._received(debate_id, socket)))

        self._call(start())

    async def _listen(self):
        """A listener of our own on the announcements the web processes hear (debates/broadcast.py)."""
        import psycopg
        from django.db import connections

        from debates import broadcast

        params = connections["default"].get_connection_params()
        for key in ("cursor_factory", "context"):
            params.pop(key, None)
        listener = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        await listener.execute(f"LISTEN {broadcast.EVENTS_CHANNEL}")

        async def published():
            async for notice in listener.notifies():
                debate_id, seq = notice.payload.split(" ", 2)[:2]
                if debate_id in self.watched:
                    self.record("published", debate_id, int(seq), time.time())

        self.tasks.append(asyncio.ensure_future(published()))
        return listener

    async def _received(self, debate_id: str, socket) -> None:
        try:
            async for frame in socket:
                if match := SEQ.search(frame):
                    self.record("received", debate_id, int(match.group(1)), time.time())
        finally:
            await socket.close()

    def close(self) -> None:
        async def stop():
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            if self.listener is not None:
                await self.listener.close()

        try:
            self._call(stop(), timeout=10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(5)


class PrintingTaps(Taps):
    """The taps in a process of their own (``--taps-child``): each moment is a line on stdout."""

    def record(self, moment: str, debate_id: str, seq: int, at: float) -> None:
        print(json.dumps([moment, debate_id, seq, at]), flush=True)


def taps_child() -> None:
    import gc

    import django

    django.setup()
    # A full collection here would stop the clients' clocks for up to 0.06 s (measured 2026-11-26)
    # and count as the server's delay: what is loaded by now lives as long as this process.
    gc.collect()
    gc.freeze()
    taps = PrintingTaps()
    for line in sys.stdin:
        command = json.loads(line)
        taps.watch(command["debate_ids"], ws_base=command["ws_base"], headers=command["headers"])
        print(json.dumps(["ready"]), flush=True)
    taps.close()


class TapsProcess:
    """The taps, run in a child process in a session (so a scheduler autogroup) of its own: the
    plain clients and the listener must not wait for a CPU behind this script's fake Messages API
    and Playwright, or they measure this script's own delays."""

    def __init__(self, env: dict, log_dir: Path) -> None:
        self.published: dict[tuple[str, int], float] = {}
        self.received: dict[tuple[str, int], float] = {}
        self.log = open(log_dir / "taps.log", "w")
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--taps-child"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            start_new_session=True,
        )
        self.ready = threading.Event()
        self.reader = threading.Thread(target=self._read, name="taps-reader", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stdout:
            moment, *rest = json.loads(line)
            if moment == "ready":
                self.ready.set()
            else:
                debate_id, seq, at = rest
                getattr(self, moment).setdefault((debate_id, seq), at)

    def watch(self, debate_ids: list[str], *, ws_base: str | None = None, headers: dict | None = None) -> None:
        self.ready.clear()
        self.process.stdin.write(json.dumps({"debate_ids": debate_ids, "ws_base": ws_base, "headers": headers}) + "\n")
        self.process.stdin.flush()
        if not self.ready.wait(60):
            raise RuntimeError(f"the taps did not start; see {self.log.name}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(5)
        self.log.close()


# ── one scenario: N debates started at once, one page watching each ───────────────────────────


@dataclass(frozen=True)
class Site:
    """The server under test, and the browser logged in to it."""

    browser: object
    storage_state: dict
    base_url: str


def run_scenario(*, label: str, count: int, args, site: Site, db, taps: Taps, measured: dict[str, int]) -> dict:
    """The delays of every event, persisted -> DOM, by kind and by stage."""
    browser, storage_state, base_url = site.browser, site.storage_state, site.base_url
    from debates.models import Debate, Event
    from debates.services.lifecycle import debate_create
    from orchestration.tasks import run_debate
    from personas.models import Deck

    def create():
        deck = Deck.objects.get(slug="money-and-markets")
        hand = list(deck.personas.order_by("name")[:3])
        from django.contrib.auth import get_user_model

        owner = get_user_model().objects.get(username="bench")
        return [
            str(debate_create(owner=owner, topic=TOPIC, personas=hand, deck=deck, max_turns=args.turns).id)
            for _ in range(count)
        ]

    debate_ids = db(create)
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in storage_state["cookies"])
    taps.watch(
        debate_ids,
        ws_base=base_url.replace("http", "ws", 1) if args.plain_client else None,
        headers={"Cookie": cookies, "Origin": base_url},
    )
    contexts, pages = [], []
    for debate_id in debate_ids:
        context = browser.new_context(
            storage_state=storage_state,
            viewport={"width": 1360, "height": 900},
            reduced_motion="reduce" if args.reduced_motion else "no-preference",
        )
        context.add_init_script(RECORDER)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{base_url}/debates/{debate_id}/")
        contexts.append(context)
        pages.append(page)
    for page in pages:
        # a function, not an expression: the CSP forbids eval
        page.wait_for_function("() => document.documentElement.dataset.live === 'open'")

    cdp = []
    if args.page_metrics:  # the pages' main threads: time in tasks, scripts, style and layout
        for page in pages:
            session = page.context.new_cdp_session(page)
            session.send("Performance.enable")
            cdp.append((session, _page_metrics(session)))

    others = frozenset(measured.values())
    cpu_before = {name: cpu_seconds(pid, others - {pid}) for name, pid in measured.items()}
    wait_before = {name: wait_seconds(pid, others - {pid}) for name, pid in measured.items()}
    load_before = os.getloadavg()[0]
    say(f"{label}: {count} page(s) connected; starting {count} debate(s) at once")
    started = time.time()
    db(lambda: [run_debate.delay(debate_id) for debate_id in debate_ids])

    finished = False
    deadline = time.monotonic() + args.timeout
    last_note = time.monotonic()
    while time.monotonic() < deadline:
        pages[0].wait_for_timeout(500)  # lets Playwright service its pages while we wait
        pending = db(lambda: Debate.objects.filter(id__in=debate_ids).exclude(status__in=Debate.FINISHED).count())
        if not pending:
            finished = True
            break
        if time.monotonic() - last_note > 15:
            say(f"{label}: {count - pending}/{count} finished after {time.time() - started:.0f} s")
            last_note = time.monotonic()
    wall = time.time() - started
    if cdp:
        totals = defaultdict(float)
        for session, before in cdp:
            for name, value in _page_metrics(session).items():
                totals[name] += value - before.get(name, 0)
        say(
            f"{label}: page main threads, all {len(cdp)} pages, during the run: "
            + ", ".join(f"{name} {totals[name]:.2f}" for name in PAGE_METRICS)
        )
    cpu = {name: cpu_seconds(pid, others - {pid}) - cpu_before[name] for name, pid in measured.items()}
    wait = {name: wait_seconds(pid, others - {pid}) - wait_before[name] for name, pid in measured.items()}
    if not finished:
        say(f"{label}: not every debate finished within {args.timeout:.0f} s; measuring what landed")

    def final_seq():
        return dict(Debate.objects.filter(id__in=debate_ids).values_list("id", "last_seq"))

    last = {str(k): v for k, v in db(final_seq).items()}
    settle = time.monotonic() + 15
    for debate_id, page in zip(debate_ids, pages, strict=True):  # the last fragments may still be on their way
        while time.monotonic() < settle and str(last[debate_id]) not in page.evaluate("Object.keys(window.__landed)"):
            page.wait_for_timeout(100)

    landed, reconnects, resyncs, clock_skew = {}, 0, 0, []
    for debate_id, page in zip(debate_ids, pages, strict=True):
        for seq, at in page.evaluate("window.__landed").items():
            landed[(debate_id, int(seq))] = at / 1000
        reconnects += page.evaluate("window.__opens") - 1
        resyncs += page.evaluate("window.__snapshots - window.__opens") - 1  # the page as loaded has one too
        # performance.timeOrigin + now() against Date.now() (the system clock Python reads too)
        clock_skew.append(page.evaluate("performance.timeOrigin + performance.now() - Date.now()"))
    for context in contexts:
        context.close()

    def events():
        return list(
            Event.objects.filter(debate_id__in=debate_ids).values_list("debate_id", "seq", "kind", "created_at")
        )

    statuses = db(lambda: list(Debate.objects.filter(id__in=debate_ids).values_list("status", flat=True)))
    moments = {"published": taps.published, "received": taps.received, "DOM": landed}
    delays = defaultdict(list)
    missing = 0
    rows = []
    for debate_id, seq, kind, created_at in db(events):
        key = (str(debate_id), seq)
        at = {"persisted": created_at.timestamp(), **{name: m[key] for name, m in moments.items() if key in m}}
        rows.append({"debate": str(debate_id), "seq": seq, "kind": kind, **at})
        if key not in landed:
            missing += 1
            continue
        for group in ("all events", KIND_GROUPS.get(kind, "other")):
            delays[group].append((at["DOM"] - at["persisted"]) * 1000)
        for start, end in [
            ("persisted", "published"),
            ("published", "DOM"),
            ("published", "received"),
            ("persisted", "received"),
        ]:
            if start in at and end in at:
                delays[f"{start} -> {end}"].append((at[end] - at[start]) * 1000)
    result = {
        "label": label,
        "debates": count,
        "statuses": statuses,
        "wall": wall,
        "cpu": cpu,
        "wait": wait,
        "load": (load_before, os.getloadavg()[0]),
        "missing": missing,
        "reconnects": reconnects,
        "resyncs": resyncs,
        "clock_skew_ms": max(clock_skew, key=abs),
        "delays": dict(delays),
        "events": rows,
    }
    n = len(delays["all events"])
    say(f"{label}: {n} events landed ({missing} missing) in {wall:.1f} s; statuses {sorted(set(statuses))}")
    return result


# ── report ────────────────────────────────────────────────────────────────────────────────────


def pooled(runs: list[dict]) -> dict:
    """One scenario's runs together: every event of every run in one distribution."""
    delays = defaultdict(list)
    for run in runs:
        for name, values in run["delays"].items():
            delays[name].extend(values)
    return {
        "label": runs[0]["label"],
        "debates": runs[0]["debates"],
        "delays": {name: summary(values) for name, values in delays.items()},
    }


def report(base_runs: list[dict], load_runs: list[dict]) -> str:
    def cell(s: dict) -> str:
        return f"{s['n']:>5} {s['p50']:>7.1f} {s['p95']:>7.1f} {s['max']:>7.1f}" if s["n"] else f"{0:>5}" + " " * 24

    def ratio(a: float, b: float) -> str:
        return f"{b / a:>6.2f}x" if a and not math.isnan(a) and not math.isnan(b) else "      -"

    base, load = pooled(base_runs), pooled(load_runs)
    head = f"{base['debates']} debate(s)", f"{load['debates']} debates at once"
    lines = [
        f"{'delay (ms)':<26}{head[0]:^29} {head[1]:^29}  p50 ratio p95 ratio",
        f"{'':<26}{'n':>5} {'p50':>7} {'p95':>7} {'max':>7} {'n':>5} {'p50':>7} {'p95':>7} {'max':>7}",
    ]
    empty = summary([])
    groups = [("persisted -> DOM", "all events")] + [(f"  {g}", g) for g in GROUP_ORDER[1:]]
    stages = ["persisted -> published", "published -> DOM", "published -> received", "persisted -> received"]
    rows = [
        (title, base["delays"].get(key, empty), load["delays"].get(key, empty))
        for title, key in groups + [(stage, stage) for stage in stages]
        if key in base["delays"] or key in load["delays"]
    ]
    for name, a, b in rows:
        lines.append(f"{name:<26}{cell(a)} {cell(b)}  {ratio(a['p50'], b['p50'])}   {ratio(a['p95'], b['p95'])}")
    backwards = [
        f"{r['label']} {name} (min {s['min']:.1f} ms)"
        for r in (base, load)
        for name, s in r["delays"].items()
        if s["min"] < -1
    ]
    if backwards:
        lines.append("moments out of order (a tap read its clock late): " + "; ".join(backwards))
    lines.append("")
    for number, pair in enumerate(zip(base_runs, load_runs, strict=True), start=1):
        for r in pair:
            d = summary(r["delays"]["all events"])
            cpu = ", ".join(f"{k} {v:.1f}" for k, v in r["cpu"].items())
            wait = ", ".join(f"{k} {v:.1f}" for k, v in r["wait"].items())
            lines.append(
                f"run {number} {r['label']:<8}: p50 {d['p50']:.1f} ms, p95 {d['p95']:.1f} ms; "
                f"wall {r['wall']:.1f} s, load average {r['load'][0]:.1f} -> {r['load'][1]:.1f}, "
                f"{dict(Counter(r['statuses']))}, missing {r['missing']}, "
                f"reconnects {r['reconnects']}, resyncs {r['resyncs']}, page vs system clock {r['clock_skew_ms']:+.1f} ms; "
                f"CPU s: {cpu}; waiting for a CPU, s: {wait}"
            )
    return "\n".join(lines)


# ── main ──────────────────────────────────────────────────────────────────────────────────────


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM unwinds like Ctrl-C, through main's finally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--debates", type=int, default=10, help="debates running at once in the loaded run")
    parser.add_argument("--baseline", type=int, default=1, help="debates in the baseline run (0: skip it)")
    parser.add_argument("--runs", type=int, default=1, help="baseline + loaded pairs, pooled in the table")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds before every fake model call answers")
    parser.add_argument(
        "--chunk-delay",
        type=float,
        default=0.03,
        help="seconds between streamed 12-character deltas (0.03: about 100 tokens/s)",
    )
    parser.add_argument("--turns", type=int, default=30, help="dialogue turns per debate")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="Celery worker processes (thread pool); threads per worker: enough for every debate",
    )
    parser.add_argument(
        "--plain-client",
        action="store_true",
        help="also watch every debate from a bare Python websocket client (daphne's share of the delay)",
    )
    parser.add_argument(
        "--reduced-motion",
        action="store_true",
        help="pages prefer reduced motion: no CSS animations (the pulse, typing dots, dealt cards)",
    )
    parser.add_argument(
        "--browser-nice",
        type=int,
        default=0,
        help="run chromium at this nice value (as if the viewers' browsers were not on the server)",
    )
    parser.add_argument(
        "--page-metrics",
        action="store_true",
        help="also print the pages' main-thread time (DevTools Performance metrics) over the loaded run",
    )
    parser.add_argument("--timeout", type=float, default=900, help="seconds to wait for the debates of a run")
    parser.add_argument(
        "--dump", type=Path, help="also write every event's moments (persisted, published, received, DOM) as JSON here"
    )
    args = parser.parse_args()

    signal.signal(signal.SIGTERM, _interrupt)

    from ops import embedded
    from ops.launcher import LaunchConfig, celery_worker_command, daphne_command, lower_priority, web_listener

    had = embedded_services_running()
    children: list[Child] = []
    api = taps = db_pool = None
    try:
        import django
        import redis

        django.setup()  # starts the embedded services if they are not running (faultline/settings.py)
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        from devtools.fake_messages_api import FakeMessagesAPI
        from devtools.scripted_debate import DebateScript
        from faultline.celery import app as celery_app

        call_command("migrate", verbosity=0)
        call_command("loadseed", verbosity=0)
        user, _ = get_user_model().objects.get_or_create(username="bench")
        user.set_password(PASSWORD)
        user.save()

        script = DebateScript(
            dispute="persistent", surface_after=4, latency=args.latency, chunk_size=12, chunk_delay=args.chunk_delay
        )
        api = FakeMessagesAPI(responder=script.respond).start()
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": settings.DATABASE_URL,
            "REDIS_URL": settings.REDIS_URL,
            "FAULTLINE_LLM": "anthropic",
            "ANTHROPIC_API_KEY": "bench",
            "ANTHROPIC_BASE_URL": api.url,
        }
        log_dir = embedded.state_dir()
        # An interrupted run may have left debates queued, or unacknowledged (kombu would hand
        # them out again), in this Redis: they must not run beside ours.
        celery_app.control.purge()
        redis.Redis.from_url(settings.REDIS_URL).delete("unacked", "unacked_index")
        launch = LaunchConfig.from_environment()
        worker_nice, web_processes = launch.worker_nice, launch.web_processes
        threads = max(1, math.ceil(max(args.debates, args.baseline) / args.workers))
        hostnames = [f"bench-live-{i}-{os.getpid()}@localhost" for i in range(args.workers)]
        for i, hostname in enumerate(hostnames):
            children.append(
                Child(
                    f"worker-{i}",
                    celery_worker_command(concurrency=threads, hostname=hostname, loglevel="WARNING"),
                    env,
                    log_dir,
                )
            )
            # At the launcher's priority (FAULTLINE_WORKER_NICE), set the launcher's way.
            lower_priority(children[-1].process.pid, worker_nice)
        # The web the launcher's way: FAULTLINE_WEB_PROCESSES daphne processes on one socket.
        listener = web_listener("127.0.0.1", 0)
        port = listener.getsockname()[1]
        fd = listener.fileno()
        for i in range(1, web_processes + 1):
            name = "daphne" if web_processes == 1 else f"daphne-{i}"
            children.append(Child(name, daphne_command(fd=fd), env, log_dir, pass_fds=(fd,)))
        base_url = f"http://127.0.0.1:{port}"
        for daphne in children[-web_processes:]:
            wait_for_http(base_url + "/accounts/login/", daphne)
        deadline = time.monotonic() + 60
        while len(celery_app.control.ping(destination=hostnames, timeout=1)) < len(hostnames):
            if time.monotonic() > deadline or not all(c.running() for c in children):
                raise RuntimeError(f"the Celery worker(s) did not start; see {log_dir}/worker-*.log")
        say(
            f"services up: {args.workers} worker process(es) x {threads} threads, {web_processes} daphne on {base_url}, "
            f"fake Messages API at {api.url} ({args.latency} s per call)"
        )

        postmaster = (
            int((embedded.state_dir() / "pgdata" / "postmaster.pid").read_text().split()[0])
            if not os.environ.get("DATABASE_URL")
            else None
        )
        measured = {c.name: c.process.pid for c in children}
        if postmaster:
            measured["postgres"] = postmaster
        if not os.environ.get("REDIS_URL"):
            measured["redis"] = int((embedded.state_dir() / "redis.pid").read_text())

        # Playwright's sync API keeps an event loop on this thread, where Django refuses ORM
        # calls: database work goes through a thread of its own.
        db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db")

        def db(function):
            return db_pool.submit(function).result(timeout=120)

        taps = TapsProcess(env, log_dir)
        measured["taps (plain clients)"] = taps.process.pid
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            ours = {c.process.pid for c in children} | {taps.process.pid}
            driver = [pid for pid in _child_pids(os.getpid()) if pid not in ours]  # Playwright's, and chromium
            measured["chromium"] = driver[0]
            if args.browser_nice:
                # chromium runs in a session (so a scheduler autogroup) of its own: its weight is
                # the autogroup's nice value, not its processes'. Playwright's driver is in this
                # script's session, which keeps its priority.
                for pid in _process_tree(driver[0], frozenset())[0]:
                    with contextlib.suppress(OSError):
                        if os.getsid(pid) != os.getsid(0):
                            Path(f"/proc/{pid}/autogroup").write_text(str(args.browser_nice))
                            os.setpriority(os.PRIO_PROCESS, pid, args.browser_nice)
            measured["this script (fake API)"] = os.getpid()
            login = browser.new_context()
            page = login.new_page()
            page.goto(f"{base_url}/accounts/login/")
            page.fill("#id_username", "bench")
            page.fill("#id_password", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
            storage_state = login.storage_state()
            login.close()

            common = {
                "args": args,
                "site": Site(browser, storage_state, base_url),
                "db": db,
                "taps": taps,
                "measured": measured,
            }
            base_runs, load_runs = [], []
            for _ in range(args.runs):
                if args.baseline:
                    base_runs.append(run_scenario(label="baseline", count=args.baseline, **common))
                load_runs.append(run_scenario(label="loaded", count=args.debates, **common))
            browser.close()

        load_avg = os.getloadavg()
        print()
        print(
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, {os.cpu_count()} CPUs, "
            f"{platform.python_implementation()} {platform.python_version()}, load average now "
            f"{load_avg[0]:.2f}; command: {' '.join(sys.argv)}"
        )
        print(
            f"fake model: {args.latency} s to first byte, 12-char deltas every {args.chunk_delay} s; "
            f"{args.turns} dialogue turns; {args.workers} worker process(es) x {threads} threads at nice {worker_nice}; "
            f"{web_processes} web process(es)" + ("; pages prefer reduced motion" if args.reduced_motion else "")
        )
        print(report(base_runs or load_runs, load_runs))
        if args.dump:
            keep = ("label", "debates", "wall", "cpu", "wait", "load", "missing", "events")
            runs = [{k: r[k] for k in keep} for r in base_runs + load_runs]
            args.dump.write_text(json.dumps(runs))
    finally:
        if taps is not None:
            taps.close()
        for child in reversed(children):  # daphne first, then the workers
            child.stop()
        if api is not None:
            api.stop()
        if db_pool is not None:
            from django.db import connections

            db_pool.submit(connections.close_all).result(10)
            db_pool.shutdown()
        stopped = stop_embedded_services_started(had)
        if stopped:
            say("stopped the embedded " + " and ".join(stopped))


if __name__ == "__main__":
    if sys.argv[1:] == ["--taps-child"]:
        taps_child()
        sys.exit(0)
    try:
        main()
    except KeyboardInterrupt:
        say("interrupted; everything this run started is stopped")
        sys.exit(130)
