"""The launcher can run the worker's debates behind the web server and the database: at
FAULTLINE_WORKER_NICE, for the process, the threads it starts and its session's autogroup (the
end-to-end check under a real launcher is in test_launcher_restarts.py)."""

import os
import sys
from pathlib import Path

from ops.launcher import Child, LaunchConfig, children_for

# Started by the launcher, this reports its own priority and that of a thread it starts later,
# the way Celery's pool threads are started after the worker has booted.
REPORT_PRIORITY = """
import os, sys, threading, time
time.sleep(0.3)
seen = []
thread = threading.Thread(target=lambda: seen.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
thread.start(); thread.join()
autogroup = open("/proc/self/autogroup").read().split()[-1] if os.path.exists("/proc/self/autogroup") else "-"
open(sys.argv[1], "w").write(f"{os.getpriority(os.PRIO_PROCESS, 0)} {seen[0]} {autogroup}")
"""


def started(name: str, nice: int, report: Path) -> Child:
    child = Child(name, [sys.executable, "-c", REPORT_PRIORITY, str(report)], nice=nice)
    child.start(dict(os.environ))
    child.process.wait(timeout=30)
    child.stop()
    return child


def test_the_worker_and_the_threads_it_starts_run_at_the_worker_nice_value(tmp_path):
    started("worker", 7, tmp_path / "worker")
    started("web", 0, tmp_path / "web")

    process, thread, autogroup = (tmp_path / "worker").read_text().split()
    assert (int(process), int(thread)) == (7, 7)
    assert autogroup in ("7", "-")  # "-": a kernel without session autogroups
    assert [int(value) for value in (tmp_path / "web").read_text().split()[:2]] == [0, 0]


def test_the_worker_nice_value_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv("FAULTLINE_WORKER_NICE", "12")
    worker, web = children_for(LaunchConfig.from_environment())

    assert (worker.name, worker.nice) == ("worker", 12)
    assert (web.name, web.nice) == ("web", 0)

    monkeypatch.delenv("FAULTLINE_WORKER_NICE")
    assert children_for(LaunchConfig.from_environment())[0].nice == 0  # by default, level with the web


def test_nice_zero_leaves_the_worker_at_the_launchers_priority(tmp_path):
    started("worker", 0, tmp_path / "worker")

    assert (tmp_path / "worker").read_text().split()[:2] == [str(os.getpriority(os.PRIO_PROCESS, 0))] * 2
