"""Django's PostgreSQL backend, its connection pool checking every idle connection at once when one
it lends turns out dead.

After the database restarts (or fails over, or a proxy between drops its connections) every idle
connection of a process's pool is dead. psycopg_pool checks the one it is about to lend, and on a
failure waits (one second, then two, four: its backoff) before it tries the next, so a pool of ten
dead connections kept the first request after a restart waiting for them in turn until it timed
out. Here the first failed check has the pool check all its idle connections there and then
(``ConnectionPool.check()``), replacing the dead ones: the request waits one backoff step and gets
a live connection.

Everything else is Django's own backend (``vendor`` is ``"postgresql"``).
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class Pool(ConnectionPool):
    """psycopg_pool's pool whose health check, failing, has every idle connection checked."""

    def __init__(self, *args: Any, check: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, check=self._check_or_sweep if check else None, **kwargs)

    def _check_or_sweep(self, conn: Any) -> None:
        try:
            ConnectionPool.check_connection(conn)
        except Exception:
            # This one is dead, so the others idle beside it most likely are too: the pool takes
            # them all out, checks each, keeps the live ones and connects anew for the others.
            self.check()
            raise


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        # Django's own (django/db/backends/postgresql/base.py, 5.2), with the pool above.
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            if pool_options is True:
                pool_options = {}
            connect_kwargs = self.get_connection_params()
            # Autocommit at first; Django sets what it needs on each connection it takes.
            connect_kwargs["autocommit"] = True
            pool = Pool(
                kwargs=connect_kwargs,
                open=False,  # opened by the first connection asked for, in the process that asks
                configure=self._configure_connection,
                check=ConnectionPool.check_connection if self.settings_dict["CONN_HEALTH_CHECKS"] else None,
                **pool_options,
            )
            # Two threads may build one each at start; the first stored is everyone's.
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
