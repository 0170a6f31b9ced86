"""The database connection budget: how many connections each kind of process may hold at most,
written down here and checked at start-up against the server's max_connections (the launcher,
ops/launcher.py), and what each process's pool is sized to (faultline/settings.py).

    web process       WEB_POOL pooled (request threads, websocket reads)  + 1 dedicated (the live
                      feed's LISTEN, debates/event_feed.py)
    worker process    WORKER_POOL_BASE + WORKER_POOL_PER_DEBATE x concurrency pooled (each
                      debate's task thread holds one for its run; its lane threads borrow one
                      per job and give it back, orchestration/lanes.py) + 1 dedicated per
                      debate (its lease: a session advisory lock, debates/services/leases.py);
                      counted twice, as a worker being replaced runs beside its replacement
    embedder          none: the offline embedder runs inside the worker and reads no database
    anything else     OTHER_POOL pooled (manage.py commands, the launcher's migrate, a shell)
    headroom          HEADROOM, beside PostgreSQL's own superuser_reserved_connections: psql,
                      a backup, a process restarting while its old connections close

A pool that is momentarily empty makes the thread wait, with a log line (faultline/database).
"""

from __future__ import annotations

from dataclasses import dataclass

WEB_POOL = 12
WEB_DEDICATED = 1
WORKER_POOL_BASE = 4
WORKER_POOL_PER_DEBATE = 2
WORKER_DEDICATED_PER_DEBATE = 1
OTHER_POOL = 4
HEADROOM = 10


def pool_size(process: str, *, worker_concurrency: int) -> int:
    """The pool of one process of this kind ("web", "worker" or anything else)."""
    if process == "web":
        return WEB_POOL
    if process == "worker":
        return WORKER_POOL_BASE + WORKER_POOL_PER_DEBATE * worker_concurrency
    return OTHER_POOL


@dataclass(frozen=True)
class Budget:
    web: int
    workers: int
    other: int
    headroom: int

    @property
    def total(self) -> int:
        return self.web + self.workers + self.other + self.headroom

    def lines(self) -> str:
        return (
            f"web {self.web}, workers {self.workers}, commands {self.other}, headroom {self.headroom}: "
            f"{self.total} in all"
        )


def budget(*, web_processes: int, worker_concurrency: int, workers: int = 1) -> Budget:
    """What a deployment may open: ``workers`` supervised workers, each counted twice (one being
    replaced runs beside its replacement until its debates end)."""
    per_worker = pool_size("worker", worker_concurrency=worker_concurrency) + (
        WORKER_DEDICATED_PER_DEBATE * worker_concurrency
    )
    return Budget(
        web=web_processes * (WEB_POOL + WEB_DEDICATED),
        workers=2 * workers * per_worker,
        other=OTHER_POOL,
        headroom=HEADROOM,
    )


def budget_problem(budget: Budget, *, max_connections: int, reserved: int) -> str | None:
    """Why this budget does not fit the server, or None."""
    available = max_connections - reserved
    if budget.total <= available:
        return None
    return (
        f"The database connection budget ({budget.lines()}) is more than PostgreSQL allows "
        f"({max_connections} max_connections, {reserved} reserved for superusers): raise max_connections "
        "or lower FAULTLINE_WORKER_CONCURRENCY / FAULTLINE_WEB_PROCESSES."
    )
