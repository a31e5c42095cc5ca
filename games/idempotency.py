"""One ``Idempotency-Key`` mechanism for every command that takes one: opening a table, a player's
action, filing and deciding disputes, payout decisions.

A command runs at most once per key: the same key and request within ``IDEMPOTENCY_TTL_SECONDS``
answer the first answer again (``replayed`` true) without running it again, another request under
the key is refused. The request names the operation too, so a key used for one kind of command is
refused for another. The record is stored in the command's own transaction: a refused command
leaves no record, a recorded answer is one that happened.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import store
from games.engine.words import T, Text
from games.errors import Conflict, IdempotencyMismatch, ServiceError
from games.models import CommandRecord, Table
from ledger.rows import Scalar, insert_rows, select_rows

# What ``Keyed.replay`` is given when the record was not read with the table's lock.
NOT_READ: Any = object()

# A command's answer: its status, its body and the table it was about (or ``None``).
Answered = tuple[int, dict[str, Any], Table | None]


@dataclass(frozen=True, slots=True)
class Keyed:
    """A request under its key (no key: nothing is kept, nothing replayed)."""

    user: AbstractBaseUser
    key: str | None
    request_hash: str

    def replay(self, read: Any = NOT_READ, *, moved: bool = True) -> tuple[int, dict[str, Any], bool] | None:
        """The first answer under the key, if it is live and was for this same request. ``read``:
        the record as a lock's statement read it (``record_read``: the record or ``None``), which
        is trusted unless it found none and the table ``moved`` past the request's version: a twin
        request may then have committed while this one waited for the lock, after the statement's
        snapshot was taken, and the record is looked up again."""
        if not self.key:
            return None
        unsure = read is NOT_READ or (read is None and moved)
        return _replay(live_record(self.user, self.key) if unsure else _live(read), self.request_hash)

    def keep(self, status: int, response: dict[str, Any], table: Table | None) -> dict[str, Any] | None:
        """Keep the answer under the key, in the command's transaction; the answer as it will be
        replayed (``None`` without a key)."""
        if not self.key:
            return None
        return _store(self.user, self.key, table, self.request_hash, response, status_code=status)


def keyed(*, user: AbstractBaseUser, key: str | None, request: Mapping[str, Any]) -> Keyed:
    """``request`` (naming its operation and body) under ``key``."""
    return Keyed(user=user, key=key, request_hash=hashlib.sha256(store.canonical_json(request).encode()).hexdigest())


def once(
    *, user: AbstractBaseUser, key: str | None, request: Mapping[str, Any], run: Callable[[], Answered]
) -> tuple[int, dict[str, Any], bool]:
    """``(status, body, replayed)`` of ``run()`` under ``key``, run at most once per key.

    For commands that lock no row of their own before the record is looked up (creating a table)
    or lock it only inside ``run`` (a payout decision): they may race a twin request with the same
    key, and the twin that loses meets the record's unique key, or the first decision, and gets the
    winner's answer replayed once it has committed. (An action looks its key up under the table's
    lock instead, with ``keyed``.)"""
    if not key:
        status, response, _table = run()
        return status, response, False
    request = keyed(user=user, key=key, request=request)
    with transaction.atomic():
        replay = request.replay()
        if replay is not None:
            return replay
        try:
            with transaction.atomic():
                status, response, table = run()
                stored = request.keep(status, response, table)
        except ServiceError:
            replay = request.replay()
            if replay is not None:
                return replay
            raise
        return status, with_words(response, stored), False


def _replay(previous: CommandRecord | None, request_hash: str) -> tuple[int, dict[str, Any], bool] | None:
    """The first answer of the live record ``previous``, if it was for this same request."""
    if previous is None:
        return None
    if previous.request_hash != request_hash:
        raise IdempotencyMismatch(
            T("This Idempotency-Key was already used with a different request; use a new key for a new request.")
        )
    return previous.status_code, previous.response, True


def with_words(answer: Any, stored: Any) -> Any:
    """The stored answer with the words of the first answer put back: the record keeps their English,
    and the answer given now is said in the reader's language. A replay (later, maybe to another
    reader) answers the stored English."""
    if isinstance(answer, Text) and stored == answer:
        return answer
    if isinstance(answer, dict) and isinstance(stored, dict):
        return {key: with_words(answer.get(key), value) for key, value in stored.items()}
    if isinstance(answer, list | tuple) and isinstance(stored, list) and len(answer) == len(stored):
        return [with_words(item, value) for item, value in zip(answer, stored)]
    return stored


def _store(
    user, key: str, table: Table | None, request_hash: str, response: dict[str, Any], *, status_code: int
) -> dict[str, Any]:
    """Keep the answer under its key, and return it as it will be replayed. Each command locks only
    its own table, so the same key sent to two tables at once is not serialised by that lock: both
    miss the record, and the second insert meets the unique key. It is refused then, and its whole
    command with it."""
    stored = json.loads(json.dumps(response, default=str))
    try:
        # No savepoint of its own: a collision refuses the whole command, whose transaction (or the
        # savepoint ``once`` runs it in) is then rolled back, so nothing after it reads this one.
        insert_rows(
            [
                CommandRecord(
                    key=key, user=user, table=table, request_hash=request_hash, status_code=status_code, response=stored
                )
            ]
        )
    except IntegrityError:
        raise Conflict(
            T("This Idempotency-Key is being used by another request right now; use a new key for a new request."),
            code="idempotency_key_in_use",
        ) from None
    return stored


def _cutoff() -> datetime:
    """Records made before this are past their TTL."""
    return timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_TTL_SECONDS)


def live_record(user: AbstractBaseUser, key: str) -> CommandRecord | None:
    """The record of ``key`` if it is within its TTL. An expired one is deleted here so the key can
    be stored again; if the new command is refused, the transaction brings the old row back,
    still expired, for the purge to take."""
    found = select_rows(CommandRecord, 'a.user_id = %s AND a."key" = %s', [user.pk, key])
    return _live(found[0] if found else None)


def _live(previous: CommandRecord | None) -> CommandRecord | None:
    if previous is not None and previous.created_at < _cutoff():
        previous.delete()
        return None
    return previous


def record_read(user: AbstractBaseUser, key: str | None) -> Scalar | None:
    """The record of ``key`` as a scalar subquery (PostgreSQL), for the statement that locks the
    table to read it too (``games.play.unit.open_table``); its value is the record or ``None``,
    for ``Keyed.replay``. ``None`` without a key."""
    if not key:
        return None
    return Scalar(_record_sql(), (user.pk, key), functools.partial(_record_of, user.pk, key))


@functools.cache
def _record_sql() -> str:
    qn = connection.ops.quote_name
    columns = ", ".join(f"r.{qn(CommandRecord._meta.get_field(name).column)}" for name in _READ)
    return (
        f"(SELECT json_build_array({columns}) FROM {qn(CommandRecord._meta.db_table)} r "
        f"WHERE r.{qn(CommandRecord._meta.get_field('user').column)} = %s AND r.{qn('key')} = %s)"
    )


_READ = ("id", "request_hash", "status_code", "response", "created_at")


def _record_of(user_id: Any, key: str, value: list[Any] | None) -> CommandRecord | None:
    if value is None:
        return None
    pk, request_hash, status_code, response, created_at = value
    record = CommandRecord(
        pk=pk,
        user_id=user_id,
        key=key,
        request_hash=request_hash,
        status_code=status_code,
        response=response,
        created_at=datetime.fromisoformat(created_at),
    )
    record._state.adding = False
    return record


def purge(*, batch: int = 1000, max_batches: int = 100) -> int:
    """Delete the idempotency records past their TTL, ``batch`` rows per statement so no purge
    holds a long lock; at most ``max_batches`` per call, the next run takes the rest."""
    cutoff = _cutoff()
    purged = 0
    for _ in range(max_batches):
        ids = list(CommandRecord.objects.filter(created_at__lt=cutoff).values_list("pk", flat=True)[:batch])
        if not ids:
            break
        purged += CommandRecord.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            break
    return purged
