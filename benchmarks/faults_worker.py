"""A Celery worker that loses a share of its live pushes on purpose: the "drop pushes" scenario
of benchmarks/faults.py starts it instead of ``celery -A faultline worker``.

Benchmark-only: the loss is a patch of ``debates.broadcast.event_notice`` made here, before the
worker starts, exactly as tests/browser/test_live_resync.py does it with monkeypatch. The events
are still committed; only their push to the web process is lost. Each dropped push is printed
(debate id and sequence number) so the benchmark can count them.

    python benchmarks/faults_worker.py SHARE SEED -- <celery worker options>
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "faultline.settings")


def main() -> None:
    share, seed = float(sys.argv[1]), int(sys.argv[2])
    worker_options = sys.argv[sys.argv.index("--") + 1 :]

    import django

    django.setup()
    from debates import broadcast
    from faultline.celery import app

    chance = random.Random(seed)
    deliver = broadcast.event_notice

    def lossy(event) -> str | None:
        if chance.random() < share:
            print(f"dropped push {event.debate_id} {event.seq} {event.kind}", flush=True)
            return None
        return deliver(event)

    broadcast.event_notice = lossy
    app.worker_main(["worker", *worker_options])


if __name__ == "__main__":
    main()
