"""A PostgreSQL primary and a streaming standby of a test's own (tests/benchmarks/servers.py's
clusters: initdb, then ``pg_basebackup -R`` of the primary, each on a free loopback port), and what
a test asks of them: the replica's address for a shape's database, waiting for the standby to
replay everything the primary has written, delaying its replay, and the statements each ran.

    with primary_and_standby(roles=["web"]) as servers:
        with Shape.create(servers.primary.url(), broker_url) as shape:
            servers.catch_up()
            shape.start_web("web", env={"DATABASE_REPLICA_URL": servers.replica_url(shape.database_name)})
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from tests.benchmarks.servers import OwnPostgres, postgres_bindir, role_url
from tests.conftest import require

# The tables whose reads say who answered an audit, a history or a hand list: each reads a hand's
# events and its seed row.
HAND_TABLES = ("games_event", "games_handseed")


def require_servers() -> None:
    """The PostgreSQL server binaries, pg_basebackup among them (a failure in CI, else a skip)."""
    try:
        bindir = postgres_bindir()
    except RuntimeError:
        bindir = None
    require(bindir is not None and (bindir / "pg_basebackup").exists(), "PostgreSQL server binaries (pg_basebackup)")


@dataclass(frozen=True)
class Replicated:
    primary: OwnPostgres
    standby: OwnPostgres

    def replica_url(self, database: str, role: str | None = None) -> str:
        """The standby's address for ``database``, connecting as ``role`` when given."""
        url = self.standby.url(database)
        return role_url(url, role) if role else url

    def catch_up(self, timeout: float = 30.0) -> None:
        """Wait until the standby has replayed all the primary had written when this was called."""
        ((written,),) = self.primary.execute("SELECT pg_current_wal_lsn()::text")
        wait_for(
            lambda: self.standby.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [written])[0][0],
            "the standby to replay the primary's WAL",
            timeout,
        )

    def delay(self, delay: str) -> None:
        """The standby applies each commit only ``delay`` after the primary made it
        (``recovery_min_apply_delay``; "0" for none)."""
        self.standby.execute(f"ALTER SYSTEM SET recovery_min_apply_delay = '{delay}'")
        self.standby.execute("SELECT pg_reload_conf()")
        wait_for(lambda: self.standby.execute("SHOW recovery_min_apply_delay")[0][0] == delay, "the delay to apply")


@contextlib.contextmanager
def primary_and_standby(roles: Sequence[str] = ()) -> Iterator[Replicated]:
    """A primary (with ``roles``, superusers that log in) and its standby, both stopped and removed after."""
    require_servers()
    with contextlib.ExitStack() as stack:
        primary = OwnPostgres(list(roles))
        stack.callback(primary.close)
        primary.start()
        standby = OwnPostgres()
        stack.callback(standby.close)
        standby.start_standby_of(primary)
        yield Replicated(primary, standby)


def reads(server: OwnPostgres, database: str, tables: Sequence[str] = HAND_TABLES, role: str | None = None) -> int:
    """Calls, on ``server`` in ``database`` (by ``role`` only, when given), of the statements that
    name one of ``tables``: pg_stat_statements counts each call as it ends."""
    pattern = r"\m(" + "|".join(tables) + r")\M"
    ((calls,),) = server.execute(
        """
        SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s
        JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid
        WHERE d.datname = %s AND s.query ~* %s AND s.query NOT ILIKE '%%pg_stat_statements%%'
            AND (%s::text IS NULL OR r.rolname = %s::text)
        """,
        [database, pattern, role, role],
    )
    return int(calls)


def wait_for(done: Callable[[], object], what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        time.sleep(0.1)
