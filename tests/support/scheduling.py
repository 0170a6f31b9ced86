"""How the suite is spread over pytest-xdist's workers, and which tests `make test-fast` runs.

`make test` runs `pytest -n N --dist loadgroup --no-loadscope-reorder`: every test file is one unit
of work (a file's module fixtures are built once, as with --dist loadfile), except the browser
tests, which are one unit together, so that one worker starts daphne, the shared Celery worker
and chromium for all of them instead of each worker starting its own. Units are handed out in
the order they are collected, and a worker asks for the next when it runs out, so the longest
units go first (the browser tests, then the files marked slow): a long file started last would
keep one worker busy while the other idles.

Every test that reaches for the database gets the ``database`` marker here; `make test-fast`
deselects those, the slow ones and the browser ones, leaving the pure and table tests.
"""

from __future__ import annotations

import pytest

DATABASE_FIXTURES = frozenset({"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"})


def pytest_configure(config):
    config.addinivalue_line("markers", "database: reaches the test database (added by tests/support/scheduling.py)")


def _uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def _unit(item: pytest.Item) -> str:
    return "browser" if item.get_closest_marker("browser") else item.nodeid.split("::", 1)[0]


def _order(item: pytest.Item) -> int:
    if item.get_closest_marker("browser"):
        return 0
    return 1 if item.get_closest_marker("slow") else 2


@pytest.hookimpl(tryfirst=True)  # before xdist names each test after its group
def pytest_collection_modifyitems(config, items):
    for item in items:
        if _uses_database(item):
            item.add_marker(pytest.mark.database)
        item.add_marker(pytest.mark.xdist_group(_unit(item)))
    items.sort(key=_order)  # stable: files keep their order within each rank
