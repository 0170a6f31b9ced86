"""Watching the database connections a run opens, on whatever thread opens them."""

from contextlib import contextmanager

from django.db.backends.signals import connection_created


@contextmanager
def on_new_connections(receiver):
    """Call ``receiver(sender, connection, **kwargs)`` for every connection opened inside the block."""
    connection_created.connect(receiver)
    try:
        yield
    finally:
        connection_created.disconnect(receiver)
