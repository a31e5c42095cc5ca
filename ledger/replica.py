"""Reads from a streaming replica, with read-your-writes (docs/scaling.md, "Reads from a replica").

Here, under the ledger, because the integrity commands of both the ledger and the games read
through it, as the API does (the ledger already keeps the database helpers both share:
``ledger.snapshot``, ``ledger.rows``).

With ``DATABASE_REPLICA_URL`` set, settings add the database alias ``replica`` and this module's
``Router``. Reads that need not see the very last commit (audits, hand histories, event pages,
hand lists, replays, dispute reviews, reports, the integrity commands) run inside ``reads(user)``,
which sends the ORM's reads (and ``ledger.rows``' hot reads, which ask the same router) to the
replica; everything else (commands, the table view a seat acts from, streams, authentication)
reads the primary as before, and so does any read inside a write transaction on the primary.

Read-your-writes: after each request that may have written (``RememberWrites``), the primary's WAL
position is kept in the cache for the person who sent it. ``reads`` serves that person from the
replica only once the replica has replayed past it, waiting up to ``REPLICA_WAIT_SECONDS``; else
from the primary. Without the setting there is no alias, ``reads`` changes nothing, and nothing is
remembered.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections

from ledger.snapshot import one_snapshot

ALIAS = "replica"
PRIMARY = "default"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# How often ``reads`` asks the replica how far it has replayed while it waits.
POLL_SECONDS = 0.02

log = logging.getLogger(__name__)
_reading: contextvars.ContextVar[str | None] = contextvars.ContextVar("replica_reading", default=None)
# Until when (monotonic clock) this process reads the primary only, the replica having failed.
_down_until = 0.0


def configured() -> bool:
    return ALIAS in settings.DATABASES


def _key(user_id: Any) -> str:
    return f"replica:written:{user_id}"


def _person(user: Any) -> Any:
    return user.pk if user is not None and getattr(user, "is_authenticated", False) else None


class Router:
    """Reads go where ``reads`` said, but to the primary inside a write transaction; writes and
    migrations always to the primary (a standby is read-only, and is migrated by replication)."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        alias = _reading.get()
        if alias is None or connections[PRIMARY].in_atomic_block:
            return PRIMARY
        return alias

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, first: Any, second: Any, **hints: Any) -> bool:
        return True  # one database and its copy

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db != ALIAS


@contextlib.contextmanager
def reads(user: Any = None, *, primary: bool = False) -> Iterator[str]:
    """Within, the ORM's reads go to the replica when it holds everything ``user`` has written
    (``primary``: not this time); yields the alias chosen."""
    alias = PRIMARY if primary or not configured() else _alias_for(_person(user))
    token = _reading.set(alias)
    try:
        yield alias
    finally:
        _reading.reset(token)


@contextlib.contextmanager
def checking() -> Iterator[str]:
    """A whole read-only check (``reconcile``, ``check_replay``, ``verify_hands``) in one snapshot
    (``ledger.snapshot``) of the replica when there is one, else of the primary as before."""
    with reads() as alias, one_snapshot(using=alias):
        yield alias


def from_replica(method: Callable[..., Any]) -> Callable[..., Any]:
    """A view method (``get(self, request, ...)``) whose reads go through ``reads(request.user)``."""

    @functools.wraps(method)
    def reading(self: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
        with reads(request.user):
            return method(self, request, *args, **kwargs)

    return reading


def _alias_for(user_id: Any) -> str:
    """The replica once it has replayed past ``user_id``'s last write (waiting up to
    ``REPLICA_WAIT_SECONDS``), else the primary; the primary too when the replica cannot answer."""
    global _down_until
    if time.monotonic() < _down_until:
        return PRIMARY
    written = cache.get(_key(user_id)) if user_id is not None else None
    deadline = time.monotonic() + settings.REPLICA_WAIT_SECONDS
    while True:
        try:
            with connections[ALIAS].cursor() as cursor:
                # NULL when the server is not a standby (it is the primary itself): caught up.
                cursor.execute("SELECT coalesce(pg_last_wal_replay_lsn() >= %s::pg_lsn, true)", [written or "0/0"])
                (caught_up,) = cursor.fetchone()
        except DatabaseError:
            # A replica that is down would cost every read the pool's wait (DATABASE_POOL_TIMEOUT)
            # before it fell back: this process leaves it alone for a while instead.
            _down_until = time.monotonic() + settings.REPLICA_RETRY_SECONDS
            log.warning("the replica did not answer; reading from the primary", exc_info=True)
            return PRIMARY
        if caught_up:
            return ALIAS
        if time.monotonic() >= deadline:
            return PRIMARY
        time.sleep(POLL_SECONDS)


def remember_write(user: Any) -> None:
    """Keep the primary's WAL position now (after the commit) as ``user``'s last write."""
    user_id = _person(user)
    if user_id is None or not configured():
        return
    with connections[PRIMARY].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        (position,) = cursor.fetchone()
    cache.set(_key(user_id), position, timeout=settings.REPLICA_REMEMBER_SECONDS)


class RememberWrites:
    """After a request that may have written (an unsafe method), its person's WAL position
    (``remember_write``); nothing without a replica."""

    def __init__(self, get_response: Callable[[Any], Any]):
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        response = self.get_response(request)
        if request.method in UNSAFE and configured():
            remember_write(getattr(request, "user", None))
        return response
