"""The databases' settings (config/settings.py reads them from here): the primary's, and the
streaming replica's when one is given, each with its per-process connection pool."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url


def pool_options(name: str = "default") -> dict:
    """The options of a process's connection pool for the database ``name``, from the environment."""
    return {
        "min_size": int(os.environ.get("DATABASE_POOL_MIN_SIZE", "2")),
        "max_size": int(os.environ.get("DATABASE_POOL_MAX_SIZE", "10")),
        # A request that finds every connection taken waits this long, then fails as an unreachable
        # database does (503 service_unavailable), never hangs.
        "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "5")),
        # Connections above min_size idle this long are closed; any connection this old is replaced
        # when it is given back (so a failover or a role's new settings reach every connection).
        "max_idle": float(os.environ.get("DATABASE_POOL_MAX_IDLE", "300")),
        "max_lifetime": float(os.environ.get("DATABASE_POOL_MAX_LIFETIME", "1800")),
        # While the database is unreachable, each missing connection is tried again with a growing
        # delay, given up after this long; the next request that needs one tries at once. Short, so
        # that after an outage a process reconnects within seconds, not after the last long delay.
        "reconnect_timeout": float(os.environ.get("DATABASE_POOL_RECONNECT_TIMEOUT", "5")),
        # How psycopg_pool's log lines name it.
        "name": name,
    }


def database(url: str | None = None, alias: str = "default", *, data_dir: Path, pool: bool) -> dict:
    """The settings of the database at ``url`` (``DATABASE_URL`` if not given): PostgreSQL with a
    pool of connections in each process (``pool``), or without a URL the SQLite file in ``data_dir``."""
    url = (os.environ.get("DATABASE_URL", "") if url is None else url).strip()
    if url:
        # Without the pool: the web process serves each request of a sync view on a thread of its
        # own (ASGI), so a connection kept past its request is never reused: it lingers, idle, until
        # garbage collection, and a busy server runs PostgreSQL out of connections. Hence no
        # persistent connections by default; the worker, whose threads live on, may set CONN_MAX_AGE.
        # Health checks: a kept connection is checked before each request reuses it, and the pool
        # checks each connection before lending it (config/postgresql/), so the first request after
        # the database restarted gets a new connection instead of a 500 on the dead one.
        config = dj_database_url.parse(
            url, conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")), conn_health_checks=True
        )
        config.setdefault("TEST", {})
        if config["ENGINE"] == "django.db.backends.postgresql" and pool:
            # A pooled connection goes back to the pool when Django closes it; Django refuses a pool
            # with persistent connections, so CONN_MAX_AGE does not apply.
            config["CONN_MAX_AGE"] = 0
            config.setdefault("OPTIONS", {})["pool"] = pool_options(alias)
            # Django's backend, its pool checking every idle connection once one is found dead.
            config["ENGINE"] = "config.postgresql"
        return config
    # SQLite is shared by the web process and the worker: WAL lets readers run beside the one
    # writer, and the busy timeout makes a writer wait instead of failing with "database is locked".
    # IMMEDIATE transactions take the write lock at BEGIN, so two writers never deadlock on upgrade.
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": str(data_dir / "db.sqlite3"),
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
        # A file, not memory, so a worker process started by the tests sees the test database.
        "TEST": {"NAME": str(data_dir / "test_db.sqlite3")},
    }
