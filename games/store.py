"""The event store: append a command's events to a table, load a table's state, check its history.

Pure data access: no game rules here. A table's events form a gap-free sequence ``seq`` 1, 2, 3 …
and a hash chain: each event's ``hash`` is ``sha256(prev_hash + canonical JSON of the event)``,
starting from ``GENESIS``, so anyone holding the events can prove none was changed, removed or
reordered (``verify_chain``). ``Table.version`` is the ``seq`` of the table's last event.

Writers serialise on the table row: ``append`` locks it, checks the version the caller decided
against, inserts the events and moves the version with a compare-and-set. The unique
``(table, seq)`` constraint is the backstop if anything ever bypasses the lock.

Loading starts from the latest snapshot (or an in-process cache of the latest state) and replays
only the events after it, so loading does not grow with the table's history.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import OuterRef, QuerySet, Subquery

from games.engine.decider import Decider, decode_event, decode_state, encode_event, encode_state, event_types_by_name
from games.errors import Conflict
from games.models import Event, Snapshot, Table

GENESIS = "0" * 64
CACHE_SIZE = 2048


def canonical_json(obj: Any) -> str:
    """The one JSON text of a value that hashes agree on: keys sorted, no spaces, UTF-8 kept as is
    (not ``\\u`` escaped), no NaN or infinities."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def event_hash(
    prev_hash: str,
    table_id: UUID | str,
    seq: int,
    type: str,
    hand_no: int,
    actor: str,
    data: Mapping[str, Any],
    secret: Mapping[str, Any],
) -> str:
    """``sha256(prev_hash + canonical_json({table, seq, type, hand_no, actor, data, secret}))`` as hex.

    ``table`` is the table's UUID in its usual dashed form. The secret part is hashed too, so
    revealing it later proves it was fixed when the event was recorded.
    """
    body = canonical_json(
        {
            "table": str(table_id),
            "seq": seq,
            "type": type,
            "hand_no": hand_no,
            "actor": actor,
            "data": data,
            "secret": secret,
        }
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


@dataclasses.dataclass(frozen=True, slots=True)
class NewEvent:
    """An event about to be recorded: its stored type, public and secret JSON parts, who caused it
    (``"user:7"``, ``"bot:counter"``, ``"system"``) and the hand it belongs to."""

    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    actor: str = "system"
    hand_no: int = 0

    @classmethod
    def of(cls, event: Any, *, actor: str, hand_no: int) -> NewEvent:
        """A game's event (a frozen dataclass) split into its stored parts."""
        type_name, data, secret = encode_event(event)
        return cls(type=type_name, data=data, secret=secret, actor=actor, hand_no=hand_no)


@dataclasses.dataclass(frozen=True, slots=True)
class ChainProblem:
    """One way a table's stored history differs from what was recorded."""

    seq: int
    what: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.what}"


def _table_id(table: Table | UUID | str) -> Any:
    return table.pk if isinstance(table, Table) else table


# --- writing ------------------------------------------------------------------------------


def append(*, table: Table, expected_version: int, records: Sequence[NewEvent]) -> list[Event]:
    """Record one command's events after ``expected_version``, or raise ``Conflict``.

    Must run inside the caller's ``transaction.atomic()`` (the ledger postings of the same command
    share it), so that events, postings and the version move together or not at all. On success
    ``table.version`` is updated in place and the new rows are returned in order.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("append() must run inside transaction.atomic(), with the command's other writes.")
    table_id = table.pk
    head = Event.objects.filter(table_id=OuterRef("pk"), seq=OuterRef("version")).values("hash")[:1]
    # One round trip: lock the table row (writers of this table queue here) and read the chain head.
    row = (
        Table.objects.select_for_update()
        .filter(pk=table_id)
        .annotate(head=Subquery(head))
        .values_list("version", "head")
        .first()
    )
    if row is None:
        raise Table.DoesNotExist(f"No table {table_id}.")
    current, prev_hash = row
    if current != expected_version:
        raise Conflict(
            f"The table has moved on to version {current}; you acted on version {expected_version}. "
            "Reload the table and try again.",
            current_version=current,
        )
    if not records:
        return []
    prev_hash = prev_hash or GENESIS
    rows = []
    seq = expected_version
    for record in records:
        seq += 1
        digest = event_hash(
            prev_hash, table_id, seq, record.type, record.hand_no, record.actor, record.data, record.secret
        )
        rows.append(
            Event(
                table_id=table_id,
                seq=seq,
                type=record.type,
                data=record.data,
                secret=record.secret,
                actor=record.actor,
                hand_no=record.hand_no,
                prev_hash=prev_hash,
                hash=digest,
            )
        )
        prev_hash = digest
    try:
        created = Event.objects.bulk_create(rows)
    except IntegrityError as error:
        # Someone wrote this table without its lock; the unique (table, seq) stopped them. The
        # transaction is unusable now (PostgreSQL aborted it), so tell Django it must roll back;
        # for the same reason the current version cannot be read here.
        transaction.set_rollback(True)
        raise Conflict(
            "Another writer recorded events on this table first. Reload the table and try again.",
            current_version=None,
        ) from error
    if Table.objects.filter(pk=table_id, version=expected_version).update(version=seq) != 1:
        transaction.set_rollback(True)
        raise Conflict("The table's version changed while recording; reload and try again.", current_version=None)
    table.version = seq
    return created


# --- reading ------------------------------------------------------------------------------

_cache: OrderedDict[tuple[Any, str], tuple[int, Any]] = OrderedDict()
_cache_lock = threading.Lock()


def remember(table: Table | UUID | str, decider: Decider, version: int, state: Any) -> None:
    """Offer the state of ``table`` at ``version`` to the in-process cache once the current
    transaction commits (never a state a rollback would undo). States are immutable, so sharing
    them between threads is safe."""
    key = (_table_id(table), decider.slug)

    def store() -> None:
        with _cache_lock:
            known = _cache.get(key)
            if known is None or known[0] < version:
                _cache[key] = (version, state)
            _cache.move_to_end(key)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)

    transaction.on_commit(store)


def forget(table: Table | UUID | str | None = None) -> None:
    """Drop cached states: of one table, or all of them (after restoring a database, say)."""
    with _cache_lock:
        if table is None:
            _cache.clear()
            return
        table_id = _table_id(table)
        for key in [key for key in _cache if key[0] == table_id]:
            del _cache[key]


def _cached(table_id: Any, decider: Decider) -> tuple[int, Any] | None:
    with _cache_lock:
        return _cache.get((table_id, decider.slug))


def _fold(decider: Decider, state: Any, version: int, rows: Sequence[tuple[int, str, Any, Any]]) -> tuple[Any, int]:
    types = event_types_by_name(decider)
    evolve = decider.evolve
    for seq, type_name, data, secret in rows:
        state = evolve(state, decode_event(types, type_name, data, secret))
        version = seq
    return state, version


def _tail(table_id: Any, after: int, at: int | None) -> list[tuple[int, str, Any, Any]]:
    events = Event.objects.filter(table_id=table_id, seq__gt=after)
    if at is not None:
        events = events.filter(seq__lte=at)
    return list(events.order_by("seq").values_list("seq", "type", "data", "secret"))


def load(*, table: Table, decider: Decider, at: int | None = None, cache: bool = True) -> tuple[Any, int]:
    """The state of ``table`` and its version: now, or just after event ``at``.

    Starts from the latest snapshot at or below that point (or, for the current state, the cached
    state if newer) and replays the events after it. Loading the current state writes a snapshot
    when it had to replay ``settings.SNAPSHOT_EVERY`` events or more.
    """
    table_id = table.pk
    base: tuple[int, Any] | None = _cached(table_id, decider) if cache and at is None else None
    from_cache = base is not None
    if base is None:
        snapshots = Snapshot.objects.filter(table_id=table_id)
        if at is not None:
            snapshots = snapshots.filter(version__lte=at)
        snapshot = snapshots.order_by("-version").values_list("version", "state").first()
        if snapshot is None:
            base = (0, decider.initial_state(table.config))
        else:
            base = (snapshot[0], decode_state(decider.state_type, snapshot[1]))
    # The caller read the table's version (under its lock, when writing): a cached state that has
    # reached it needs no look for newer events.
    rows = [] if from_cache and base[0] >= table.version else _tail(table_id, base[0], at)
    state, version = _fold(decider, base[1], base[0], rows)
    if at is None:
        if len(rows) >= settings.SNAPSHOT_EVERY:
            save_snapshot(table, version, state)
        if cache and (rows or not from_cache):
            remember(table_id, decider, version, state)
    return state, version


def save_snapshot(table: Table | UUID | str, version: int, state: Any) -> None:
    """Keep ``state`` as the table's snapshot at ``version``. Two loaders racing to write the same
    snapshot is fine: the second is ignored (no exception, so a surrounding transaction survives)."""
    Snapshot.objects.bulk_create(
        [Snapshot(table_id=_table_id(table), version=version, state=encode_state(state))], ignore_conflicts=True
    )


def replay_from_scratch(table: Table, decider: Decider) -> tuple[Any, int]:
    """The state of ``table`` folded from its very first event, ignoring snapshots and cache."""
    return _fold(decider, decider.initial_state(table.config), 0, _tail(table.pk, 0, None))


def events_after(table: Table | UUID | str, after: int, limit: int | None = None) -> QuerySet[Event]:
    """The table's events with ``seq > after`` in order, at most ``limit`` of them."""
    events = Event.objects.filter(table_id=_table_id(table), seq__gt=after).order_by("seq")
    return events[:limit] if limit is not None else events


def _stored_chain(table_id: Any) -> Iterator[tuple[Any, ...]]:
    return (
        Event.objects.filter(table_id=table_id)
        .order_by("seq")
        .values_list("seq", "type", "hand_no", "actor", "data", "secret", "prev_hash", "hash")
        .iterator(chunk_size=2000)
    )


def verify_chain(table: Table | UUID | str) -> list[ChainProblem]:
    """Every way the table's stored events differ from an intact chain (empty when intact):
    gaps in ``seq``, a ``prev_hash`` that is not the previous event's hash, a ``hash`` that does
    not match the event's contents, and a table version that is not the last ``seq``."""
    table_id = _table_id(table)
    problems: list[ChainProblem] = []
    expected_seq, prev_hash = 1, GENESIS
    last_seq = 0
    for seq, type_name, hand_no, actor, data, secret, stored_prev, stored_hash in _stored_chain(table_id):
        if seq != expected_seq:
            problems.append(ChainProblem(seq, f"expected seq {expected_seq} here: events are missing or reordered"))
        if stored_prev != prev_hash:
            problems.append(ChainProblem(seq, "prev_hash is not the hash of the event before it"))
        recomputed = event_hash(stored_prev, table_id, seq, type_name, hand_no, actor, data, secret)
        if recomputed != stored_hash:
            problems.append(ChainProblem(seq, "hash does not match the event's contents (changed after recording)"))
        expected_seq, prev_hash, last_seq = seq + 1, stored_hash, seq
    version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version != last_seq:
        problems.append(ChainProblem(last_seq, f"the table is at version {version} but its last event is {last_seq}"))
    return problems
