"""A transactional test's clean-up in milliseconds instead of a third of a second.

After a ``django_db(transaction=True)`` test, Django flushes the database: one TRUNCATE of every
table (PostgreSQL gives each of the ~50 tables a new file: ~0.24 s here) and then the post_migrate
signal, which writes every content type and permission back (~0.14 s). Over the suite's ~400
transactional tests that was about a tenth of its time.

Here the flush deletes the rows instead (an empty or small table is emptied in microseconds, all
of them in one transaction with the foreign keys checked at its end, as Django creates them
DEFERRABLE) and keeps the two tables post_migrate would fill again with the same rows, so the signal
is not needed. A flush that resets sequences (``reset_sequences=True``) still takes Django's way.

A flush that meets a straggler still writing (a debate the shared worker was finishing as stopped
when the test ended) can deadlock with it: PostgreSQL then aborts one of the two, and if it was
the flush, the flush is simply run again.
"""

from __future__ import annotations

import time

import pytest

# What post_migrate writes back after a flush: content types and the permissions made from them.
KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(scope="session", autouse=True)
def quick_flush():
    from django.core.management.commands import flush

    django_sql_flush, django_emit = flush.sql_flush, flush.emit_post_migrate_signal
    kept_rows = {"last": False}

    def sql_flush(style, connection, reset_sequences=True, allow_cascade=False):
        kept_rows["last"] = not reset_sequences
        if reset_sequences:
            return django_sql_flush(style, connection, reset_sequences=True, allow_cascade=allow_cascade)
        tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
        quote = connection.ops.quote_name
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"DELETE FROM {quote(table)}" for table in sorted(tables) if table not in KEPT_TABLES
        ]

    def emit_post_migrate_signal(*args, **kwargs):
        if not kept_rows["last"]:  # Django's own flush emptied the content types: write them back
            django_emit(*args, **kwargs)

    from django.db.backends.postgresql.operations import DatabaseOperations
    from django.db.utils import OperationalError

    django_execute = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        for attempt in range(5):
            try:
                return django_execute(self, sql_list)
            except OperationalError as error:
                if "deadlock detected" not in str(error) or attempt == 4:
                    raise
                time.sleep(0.1 * (attempt + 1))

    flush.sql_flush, flush.emit_post_migrate_signal = sql_flush, emit_post_migrate_signal
    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    flush.sql_flush, flush.emit_post_migrate_signal = django_sql_flush, django_emit
    DatabaseOperations.execute_sql_flush = django_execute
