"""Django's PostgreSQL backend (psycopg 3), with its connection pool (Django 5.2, "pool" in the
database's OPTIONS) made of ``WaitingPool``: when every connection of the process's budget is
lent out (ops/connections.py), a thread that needs one waits for one to come back, with a line in
the log every POOL_WAIT_LOG_SECONDS, instead of failing after the pool's timeout. The budget is
what PostgreSQL's max_connections was checked against at start-up; more connections than that
would be refused by the server ("too many clients already"), which is what a wait replaces.
"""

from __future__ import annotations

import logging
import threading

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base
from django.db.utils import DEFAULT_DB_ALIAS
from psycopg_pool import ConnectionPool, PoolTimeout

logger = logging.getLogger(__name__)

# How long a thread waits quietly for a connection before it says so (and again, each time).
POOL_WAIT_LOG_SECONDS = 5.0


class WaitingPool(ConnectionPool):
    def getconn(self, timeout: float | None = None):
        try:
            return super().getconn(timeout=POOL_WAIT_LOG_SECONDS)
        except PoolTimeout:
            pass
        waited = POOL_WAIT_LOG_SECONDS
        while True:
            stats = self.get_stats()
            logger.warning(
                "Database pool %s: all %s connections are lent out; %s waiting for %.0f s (%s)",
                self.name,
                stats.get("pool_size", "?"),
                threading.current_thread().name,
                waited,
                f"{stats.get('requests_waiting', 0)} waiting in all",
            )
            try:
                return super().getconn(timeout=POOL_WAIT_LOG_SECONDS)
            except PoolTimeout:
                waited += POOL_WAIT_LOG_SECONDS


def _unlock_all(connection) -> None:
    """A session advisory lock taken on a pooled connection never outlives its borrower (the
    leases hold theirs on connections of their own: debates/services/leases.py)."""
    connection.execute("SELECT pg_advisory_unlock_all()")


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == base.NO_DB_ALIAS or not options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # as Django's own pool: it sets its mode once it has one
            pool = WaitingPool(
                kwargs=kwargs,
                open=False,
                configure=self._configure_connection,
                reset=_unlock_all,
                check=ConnectionPool.check_connection if self.settings_dict["CONN_HEALTH_CHECKS"] else None,
                name=self.alias if self.alias != DEFAULT_DB_ALIAS else "default",
                **({} if options is True else options),
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
