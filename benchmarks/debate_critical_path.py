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
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("loadseed", verbosity=0)

    from debates.services.lifecycle import debate_create
    from faultline.llm import gateway
    from faultline.llm.fake_messages_api import FakeMessagesAPI
    from faultline.llm.models import ModelCall
    from orchestration.run import debate_run
    from personas.models import Deck
    from tests.support.scripted_debate import DebateScript

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
            started = time.perf_counter()
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
    wall = statistics.median(r["wall"] for r in rows)
    critical = statistics.median(r["critical"] for r in rows)
    serial = statistics.median(r["serial"] for r in rows)
    print(
        f"\nmedian of {len(rows)}: wall {wall:.2f} s | critical path {critical:.2f} s | all calls serially {serial:.2f} s"
        f" | wall/critical {wall / critical:.3f} | wall/serial {wall / serial:.3f}"
    )


if __name__ == "__main__":
    main()
