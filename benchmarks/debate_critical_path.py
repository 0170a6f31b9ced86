"""Wall time of a whole debate against the latencies on its critical path.

A 3-persona debate of N dialogue turns runs through the real orchestrator, the real anthropic SDK
and a local fake Messages API that answers every call after a fixed latency. The critical path is
the main channel's persona turns (openings, dialogue, closings): every other call (aspect plan,
disagreement detection, crux rooms, exit checks, cards, evidence ledger) must run beside it.
Side by side, the same calls run one after another would take the "serial" figure.

    .venv/bin/python benchmarks/debate_critical_path.py [--latency 0.2] [--turns 30] [--runs 3]

Uses its own embedded PostgreSQL and Redis (.faultline/bench) unless DATABASE_URL/REDIS_URL are set.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("FAULTLINE_STATE_DIR", str(ROOT / ".faultline" / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")
os.environ.setdefault("LOG_LEVEL", "ERROR")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.2, help="seconds every fake model call takes")
    parser.add_argument("--turns", type=int, default=30, help="dialogue turns")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--breakdown", action="store_true", help="also print where the time above the critical path went, per run"
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("loadseed", verbosity=0)

    from debates.services.lifecycle import debate_create
    from devtools.fake_messages_api import FakeMessagesAPI
    from devtools.scripted_debate import DebateScript
    from gateways.llm import gateway
    from gateways.llm.models import ModelCall
    from orchestration.run import debate_run
    from personas.models import Deck

    hand = list(Deck.objects.get(slug="money-and-markets").personas.order_by("name")[:3])
    rows = []
    for run in range(1, args.runs + 1):
        script = DebateScript(dispute="persistent", surface_after=4, latency=args.latency, chunk_size=40)
        with FakeMessagesAPI(responder=script.respond) as api:
            settings.FAULTLINE_LLM, settings.ANTHROPIC_API_KEY, settings.ANTHROPIC_BASE_URL = (
                "anthropic",
                "bench",
                api.url,
            )
            gateway.reset_provider()
            debate = debate_create(
                owner=None, topic="Is gold still a hedge against inflation?", personas=hand, max_turns=args.turns
            )
            started, started_wall = time.perf_counter(), time.time()
            debate = debate_run(debate_id=debate.id)
            wall = time.perf_counter() - started
        calls = ModelCall.objects.filter(debate=debate)
        main_turns = calls.filter(role="persona").exclude(phase__startswith="crux_room").count()
        rows.append(
            {
                "run": run,
                "status": debate.status,
                "wall": wall,
                "calls": calls.count(),
                "critical_calls": main_turns,
                "critical": main_turns * args.latency,
                "serial": calls.count() * args.latency,
                "rooms": debate.crux_rooms.count(),
            }
        )
        r = rows[-1]
        print(
            f"run {run}: {r['status']}, {r['calls']} calls ({r['critical_calls']} on the critical path, "
            f"{r['rooms']} crux room), wall {r['wall']:.2f} s, critical path {r['critical']:.2f} s, "
            f"serial {r['serial']:.2f} s, wall/critical {r['wall'] / r['critical']:.3f}",
            flush=True,
        )
        if args.breakdown:
            print(
                breakdown(debate, started_wall=started_wall, ended_wall=started_wall + wall, latency=args.latency),
                flush=True,
            )
    wall = statistics.median(r["wall"] for r in rows)
    critical = statistics.median(r["critical"] for r in rows)
    serial = statistics.median(r["serial"] for r in rows)
    print(
        f"\nmedian of {len(rows)}: wall {wall:.2f} s | critical path {critical:.2f} s | all calls serially {serial:.2f} s"
        f" | wall/critical {wall / critical:.3f} | wall/serial {wall / serial:.3f}"
    )


def breakdown(debate, *, started_wall: float, ended_wall: float, latency: float) -> str:
    """Where the wall time above the critical path went, from the ModelCall and Event rows: the
    gaps between one main-channel persona call's end and the next one's start, the start before
    the first call, the end after the last one, and the run's wind-down after its finished event
    (side work still running, which the run waits for before it lets go; nobody waits for it on
    the page)."""
    from datetime import timedelta

    from debates.models import Event
    from gateways.llm.models import ModelCall

    calls = list(
        ModelCall.objects.filter(debate=debate, role="persona")
        .exclude(phase__startswith="crux_room")
        .order_by("created_at")
    )
    spans = [(c.created_at - timedelta(milliseconds=c.latency_ms), c.created_at, c.phase) for c in calls]
    gaps = [(spans[i + 1][0] - spans[i][1]).total_seconds() for i in range(len(spans) - 1)]
    in_call = [(end - start).total_seconds() - latency for start, end, _ in spans]
    first_closing = next(i for i, span in enumerate(spans) if span[2] == "closing")
    finished = Event.objects.get(debate=debate, kind="debate_finished").created_at
    lead = spans[0][0].timestamp() - started_wall
    tail = (finished - spans[-1][1]).total_seconds()
    plain = sorted(g for i, g in enumerate(gaps) if i + 1 != first_closing)
    return (
        f"  before the first call {lead:.2f} s; {len(gaps)} gaps between calls: sum {sum(gaps):.2f} s, "
        f"median {statistics.median(plain) * 1000:.0f} ms, max {max(plain) * 1000:.0f} ms; "
        f"before the first closing {gaps[first_closing - 1] * 1000:.0f} ms; "
        f"last call to the finished event {tail:.2f} s; "
        f"finished event to the run's return {ended_wall - finished.timestamp():.2f} s; "
        f"inside the calls beyond the model's {latency} s: median {statistics.median(in_call) * 1000:.0f} ms, "
        f"sum {sum(in_call):.2f} s"
    )


if __name__ == "__main__":
    main()
