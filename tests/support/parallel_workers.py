"""A Redis of its own for each pytest-xdist worker (`pytest -n 2`, as `make test` runs the suite).

The workers share the embedded PostgreSQL (pytest-django gives each its own test database,
test_faultline_gw0, ...), but one Redis would mix them up: both Celery workers would consume one
queue (a task from gw0 run against gw1's database), the channel layer's pub/sub is not split by
database number (a page on gw0 would hear gw1's debate 1), and every test clears the rate-limit
counters. So each worker starts its own embedded Redis under the state folder and points
REDIS_URL at it, before Django's settings are read (hence a plugin loaded with `-p`, not a
conftest: pytest-django reads the settings before any conftest is imported). Processes the tests
start inherit REDIS_URL or are handed settings.REDIS_URL. Run without -n, this does nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from ops import embedded


def worker_id() -> str | None:
    """gw0, gw1, ... in an xdist worker; None in a run without -n (and in xdist's controller)."""
    return os.environ.get("PYTEST_XDIST_WORKER")


@contextlib.contextmanager
def _state_folder(folder: Path) -> Iterator[None]:
    """The embedded-services helpers work on FAULTLINE_STATE_DIR; point it at ``folder`` meanwhile."""
    previous = os.environ.get("FAULTLINE_STATE_DIR")
    os.environ["FAULTLINE_STATE_DIR"] = str(folder)
    try:
        yield
    finally:
        if previous is None:
            del os.environ["FAULTLINE_STATE_DIR"]
        else:
            os.environ["FAULTLINE_STATE_DIR"] = previous


def _worker_folder(worker: str) -> Path:
    return embedded.state_dir() / "workers" / worker


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    worker = worker_id()
    if worker is None:
        return
    if os.environ.get("REDIS_URL"):
        raise pytest.UsageError(
            "REDIS_URL is set, so the xdist workers would share one Redis (its queue, its pub/sub): "
            "run without -n, or unset REDIS_URL to let each worker start an embedded one."
        )
    with _state_folder(_worker_folder(worker)):
        os.environ["REDIS_URL"] = embedded.redis_url()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    # After the session's fixtures (the Celery worker, daphne) are torn down, and before xdist
    # tells the controller this worker is done: the controller may end the process right after.
    worker = worker_id()
    if worker is None:
        return
    with _state_folder(_worker_folder(worker)):
        embedded.redis_stop()
