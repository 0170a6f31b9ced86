"""Side work of one run, in named lanes: one submit / await / shutdown API for all of it.

A lane runs its jobs in submission order on its own threads (``workers`` of them); the speaker on
the critical path never queues behind a lane it does not wait for. Every job runs inside
``_job``, the one place that closes a thread's database connection. ``cancel()`` tells every job
to stop at its next safe point (``cancelled`` is what they check), and ``shutdown()`` waits for
the jobs still running, so no lane thread outlives its run and writes after the run let go.

Each job ends by closing its thread's connection, which gives it back to the process's pool
(faultline/database, sized by ops/connections.py): a lane thread holds a connection only while a
job of it runs, so a worker's debates share one budget, and taking one from the pool costs no new
PostgreSQL backend (which is why lanes once kept theirs for the run).

One lane may go ``first``: a job queued on any other lane (but those named ``beside_first``, whose
jobs see to it themselves) starts only once the ``first`` lane's jobs queued before it are done. The run loop writes a finished turn on such a lane while the next
turn's request goes out, and side work queued after the turn still finds its rows written.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from django.db import connection

logger = logging.getLogger(__name__)

SHUTDOWN_SECONDS = 120


class RunCancelled(Exception):
    """Raised by a job at a safe point once its run has been cancelled."""


@dataclass
class _Lane:
    executor: ThreadPoolExecutor
    futures: list[Future] = field(default_factory=list)


class Lanes:
    def __init__(
        self,
        name: str,
        spec: dict[str, int],
        *,
        first: str | None = None,
        beside_first: Iterable[str] = (),
    ) -> None:
        self.name = name
        self.first = first
        self.beside_first = frozenset(beside_first)
        self.cancelled = threading.Event()
        self._lanes = {
            lane: _Lane(ThreadPoolExecutor(max_workers=workers, thread_name_prefix=f"{lane}-{name}"))
            for lane, workers in spec.items()
        }
        self._lock = threading.Lock()
        self._closed = False

    def check(self) -> None:
        """A safe point: raise RunCancelled if the run is over."""
        if self.cancelled.is_set():
            raise RunCancelled(self.name)

    def submit(self, lane: str, function: Callable, /, *args, **kwargs) -> Future | None:
        """Queue ``function`` on ``lane``; None (and nothing runs) once the run has ended."""
        with self._lock:
            if self._closed or self.cancelled.is_set():
                logger.info(
                    "%s: %s job %s not queued, the run has ended",
                    self.name,
                    lane,
                    getattr(function, "__name__", function),
                )
                return None
            after = []
            if self.first is not None and lane != self.first and lane not in self.beside_first:
                after = [f for f in self._lanes[self.first].futures if not f.done()]
            future = self._lanes[lane].executor.submit(self._job, lane, function, args, kwargs, after)
            self._lanes[lane].futures.append(future)
            return future

    def _job(self, lane: str, function: Callable, args, kwargs, after: list[Future] = ()):
        for future in after:  # the ``first`` lane's jobs queued before this one
            with contextlib.suppress(Exception):  # a failure (or cancellation) is the run's to report
                future.result()
        if self.cancelled.is_set():
            return None
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()  # back to the pool: the thread holds none between jobs

    def futures(self, lane: str) -> list[Future]:
        return list(self._lanes[lane].futures)

    def wait(self, lanes: str | Iterable[str], *, timeout: float | None = None, lag: int = 0) -> None:
        """Wait for what was queued on ``lanes`` so far (all but the last ``lag`` jobs of each).

        A job that fails is logged, never raised: side work degrades, it does not end the run.
        Jobs queued while waiting (a detection opening a room) are waited for too.
        """
        names = [lanes] if isinstance(lanes, str) else list(lanes)
        deadline = None if timeout is None else time.monotonic() + timeout
        seen: set[Future] = set()
        while True:
            pending = []
            for lane in names:
                futures = self.futures(lane)
                pending += [f for f in futures[: len(futures) - lag] if f not in seen]
            if not pending:
                return
            for future in pending:
                seen.add(future)
                remaining = None if deadline is None else max(0.1, deadline - time.monotonic())
                try:
                    future.result(timeout=remaining)
                except CancelledError:
                    pass
                except TimeoutError:
                    logger.warning("%s: side work still running after %.0f s; going on without it", self.name, timeout)
                    return
                except Exception:
                    logger.exception("%s: side work failed", self.name)

    def cancel(self) -> None:
        self.cancelled.set()

    def shutdown(self, timeout: float = SHUTDOWN_SECONDS) -> None:
        """Cancel queued jobs, tell running ones to stop, and wait for them to end."""
        with self._lock:
            self._closed = True
        self.cancel()
        for lane in self._lanes.values():
            lane.executor.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + timeout
        for name, lane in self._lanes.items():
            for future in lane.futures:
                try:
                    future.result(timeout=max(0.1, deadline - time.monotonic()))
                except (CancelledError, RunCancelled):
                    pass
                except TimeoutError:
                    logger.error("%s: a %s job did not stop within %.0f s of the run's end", self.name, name, timeout)
                except Exception:
                    logger.debug("%s: a %s job ended with an error during shutdown", self.name, name, exc_info=True)
        for lane in self._lanes.values():
            if all(future.done() for future in lane.futures):
                lane.executor.shutdown(wait=True)  # its threads exit now that nothing is left to run
