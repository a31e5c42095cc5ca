"""The event store: append a command's events to a table, load a table's state, check its history.

Pure data access: no game rules here. A table's events form a gap-free sequence ``seq`` 1, 2, 3 …
and a hash chain: each event's ``hash`` is ``sha256(prev_hash + canonical JSON of the event)``,
starting from ``GENESIS``, so anyone holding the events can prove none was changed, removed or
reordered (``verify_chain``). ``Table.version`` is the ``seq`` of the table's last event.

Writers serialise on the table row: ``append`` moves the version with a compare-and-set that
locks the row until commit (so a second writer waits, then sees the version moved and gets a
``Conflict``), and inserts the events. The unique
``(table, seq)`` constraint is the backstop if anything ever bypasses the lock.

Loading starts from the latest snapshot (or an in-process cache of the latest state) and replays
only the events after it, so loading does not grow with the table's history. Every reader of the
history folds it through ``games.engine.fold``: ``load`` directly, the others with ``walk``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction
from django.db.models import Max, Min, QuerySet
from django.utils import timezone

from games.engine.codec import decode_state, encode_event, encode_state
from games.engine.decider import Decider
from games.engine.fold import ReplayFailed, Step, fold
from games.engine.words import T
from games.errors import Conflict
from games.models import Event, Snapshot, Table
from games.riders import Appended, Rider, inserted, rider_params, run_apart

# The state cache lives in games.states; its names stay reachable here, where loads use it.
from games.states import CACHE_SIZE as CACHE_SIZE
from games.states import _cached, remember
from games.states import forget as forget
from ledger.rows import Scalar, fetch, select_values

GENESIS = "0" * 64


_canonical_encode = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def canonical_json(obj: Any) -> str:
    """The one JSON text of a value that hashes agree on: keys sorted, no spaces, UTF-8 kept as is
    (not ``\\u`` escaped), no NaN or infinities."""
    # One encoder for every call: json.dumps with options builds a new one each time.
    return _canonical_encode(obj)


# The version of the hashed body an event is recorded with (``Event.hash_version``). 1: the body
# holds ``{table, seq, type, hand_no, actor, data, secret}``. 2 adds ``created_at`` (``stamp``), so
# every stored field of an event is under its hash. Events are immutable, so those recorded under
# version 1 keep it and are verified as they were recorded.
HASH_VERSION = 2


def stamp(moment: Any) -> str:
    """The one text of an event's ``created_at`` that its hash covers: UTC, microseconds always
    written (``2025-01-31T12:00:00.000000Z``), as both databases store it exactly."""
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_hash(
    prev_hash: str,
    table_id: UUID | str,
    seq: int,
    type: str,
    hand_no: int,
    actor: str,
    data: Mapping[str, Any],
    secret: Mapping[str, Any],
    created_at: Any = None,
) -> str:
    """``sha256(prev_hash + canonical_json({table, seq, type, hand_no, actor, data, secret, created_at}))``
    as hex; without ``created_at`` (``None``) the body of hash version 1.

    ``table`` is the table's UUID in its usual dashed form. The secret part is hashed too, so
    revealing it later proves it was fixed when the event was recorded.
    """
    return _sha256(prev_hash, _event_body(table_id, seq, type, hand_no, actor, data, secret, created_at))


def _event_body(
    table_id: Any,
    seq: int,
    type: str,
    hand_no: int,
    actor: str,
    data: Mapping[str, Any],
    secret: Mapping[str, Any],
    created_at: Any = None,
) -> str:
    body = {
        "table": str(table_id),
        "seq": seq,
        "type": type,
        "hand_no": hand_no,
        "actor": actor,
        "data": data,
        "secret": secret,
    }
    if created_at is not None:
        body["created_at"] = stamp(created_at)
    return canonical_json(body)


def _sha256(prev_hash: str, body: str) -> str:
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
class Recorded:
    """A stored event: the row's fields, as ``append`` recorded it and as a walk reads it back,
    without the cost of a model instance on the hot path (callers read fields only)."""

    pk: Any
    table_id: Any
    seq: int
    type: str
    data: Mapping[str, Any]
    secret: Mapping[str, Any]
    actor: str
    hand_no: int
    created_at: Any
    prev_hash: str
    hash: str


def _table_id(table: Table | UUID | str) -> Any:
    return table.pk if isinstance(table, Table) else table


# --- writing ------------------------------------------------------------------------------


def append(
    *,
    table: Table,
    expected_version: int,
    records: Sequence[NewEvent],
    also: Mapping[str, Any] | None = None,
    riders: Sequence[Rider] = (),
) -> list[Recorded]:
    """Record one command's events after ``expected_version``, or raise ``Conflict``.

    Must run inside the caller's ``transaction.atomic()`` (the ledger postings of the same command
    share it), so that events, postings and the version move together or not at all. On success
    ``table.version`` is updated in place and the new rows are returned in order.

    The version moves with a compare-and-set that also locks the table row until commit (writers
    of one table queue there, as with ``select_for_update``; the second finds the version moved).
    Append is the hot path, so on PostgreSQL the compare-and-set, the read of the chain head, the
    hashes and the inserts are one statement (one round trip); elsewhere two.

    ``also`` sets other fields of the table row (``{field name: value}``) in the same compare-and-set,
    so that a command's other changes to the row (its next deadline) cost no statement of their
    own; they are set on ``table`` too. ``riders`` are written with it (``Rider``): the command's
    other rows that need nothing the append returns (its tasks in the outbox, its notice).
    """
    if not connection.in_atomic_block:
        raise RuntimeError("append() must run inside transaction.atomic(), with the command's other writes.")
    # The service sets the time itself, before hashing, so the stored time is the hashed one.
    now = _now()
    bodies = [
        _event_body(table.pk, seq, r.type, r.hand_no, r.actor, r.data, r.secret, now)
        for seq, r in enumerate(records, start=expected_version + 1)
    ]
    write = _append_postgres if connection.vendor == "postgresql" and records else _append_portable
    try:
        events = write(table.pk, expected_version, records, bodies, _row_changes(also), now, riders)
    except IntegrityError as error:
        # Someone wrote this table without its lock; the unique (table, seq) stopped them. The
        # transaction is unusable now (PostgreSQL aborted it), so tell Django it must roll back;
        # for the same reason the current version cannot be read here.
        transaction.set_rollback(True)
        raise Conflict(
            T("Another writer recorded events on this table first. Reload the table and try again."),
            current_version=None,
        ) from error
    if events is None:
        raise _moved_on(table, expected_version)
    _appended(table, expected_version + len(records), also, riders, events)
    return list(events)


def _appended(table: Table, version: int, also: Mapping[str, Any] | None, riders: Sequence[Rider], events: Any) -> None:
    """The row's new version and other fields set on ``table``, and each rider told what the append
    gave it back."""
    table.version = version
    for name, value in (also or {}).items():
        setattr(table, name, value)
    for rider, value in zip(riders, events.rider_values if isinstance(events, Appended) else (), strict=False):
        if rider.then is not None:
            rider.then(value)


def _moved_on(table: Table, expected_version: int) -> Conflict:
    """The conflict of an append whose compare-and-set found the version moved: it names the
    version the table is at now (a table that is gone is ``Table.DoesNotExist``)."""
    current = Table.objects.filter(pk=table.pk).values_list("version", flat=True).first()
    if current is None:
        raise Table.DoesNotExist(f"No table {table.pk}.")
    return Conflict(
        T(
            "The table has moved on to version {version}; you acted on version {expected}. "
            "Reload the table and try again.",
            version=current,
            expected=expected_version,
        ),
        current_version=current,
    )


def _now() -> Any:
    """The time events are recorded at (a seam for tests that need repeatable hashes)."""
    return timezone.now()


def _row_changes(also: Mapping[str, Any] | None) -> tuple[tuple[str, ...], list[Any]]:
    """The columns and database values of the table row's fields in ``also``."""
    if not also:
        return (), []
    fields = [Table._meta.get_field(name) for name in also]
    if any(field.primary_key or field.name == "version" for field in fields):
        raise ValueError("append() moves the version itself and never changes the table's id.")
    columns = tuple(field.column for field in fields)
    return columns, [field.get_db_prep_save(value, connection) for field, value in zip(fields, also.values())]


def _set_clause(columns: tuple[str, ...], placeholder) -> str:
    return "".join(f", {connection.ops.quote_name(column)} = {placeholder(i)}" for i, column in enumerate(columns))


def _append_postgres(
    table_id: Any,
    version: int,
    records: Sequence[NewEvent],
    bodies: list[str],
    changes: tuple[tuple[str, ...], list[Any]],
    now: Any,
    riders: Sequence[Rider] = (),
) -> list[Recorded] | None:
    # Each event travels once, as the canonical body it is hashed from; the database takes its
    # columns from that body, so nothing else needs encoding here.
    params = {"to": version + len(records), "table": table_id, "at": version, "genesis": GENESIS, "v": HASH_VERSION}
    params.update(zip(_body_names(len(records)), bodies))
    columns, values = changes
    params.update((f"c{i}", value) for i, value in enumerate(values))
    params.update(rider_params(riders))
    sql = _postgres_append_sql(len(records), columns, tuple((r.sql, r.returning) for r in riders))
    rows = _run_append(sql, params)
    if len(rows) > 1:
        rows.sort(key=lambda row: row[1])
    if not rows:
        return None
    events = Appended()
    events.rider_values = tuple(rows[0][4:])
    prev_hash = rows[0][2]
    for (pk, seq, stored_prev, stored_hash, *_), record, body in zip(rows, records, bodies, strict=True):
        # The database hashed what Python would: check it, so the two definitions never drift.
        if stored_prev != prev_hash or stored_hash != _sha256(prev_hash, body):
            transaction.set_rollback(True)
            raise RuntimeError(f"The database computed a different hash for event {seq}; nothing was recorded.")
        events.append(_recorded(pk, table_id, seq, record, now, prev_hash, stored_hash))
        prev_hash = stored_hash
    return events


def _run_append(sql: str, params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """Run the one-statement append and fetch its rows (pk, seq, prev_hash, hash), prepared once
    per connection (``ledger.rows.fetch``)."""
    return fetch(connections[DEFAULT_DB_ALIAS], sql, params)


def _append_portable(
    table_id: Any,
    version: int,
    records: Sequence[NewEvent],
    bodies: list[str],
    changes: tuple[tuple[str, ...], list[Any]],
    now: Any,
    riders: Sequence[Rider] = (),
) -> list[Recorded] | None:
    db_table_id = Table._meta.pk.get_db_prep_value(table_id, connection)
    table, event = Table._meta.db_table, Event._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET version = %s{_set_clause(changes[0], lambda i: '%s')} WHERE id = %s AND version = %s "
            f"RETURNING era, (SELECT hash FROM {event} WHERE table_id = %s AND seq = %s)",
            [version + len(records), *changes[1], db_table_id, version, db_table_id, version],
        )
        head = cursor.fetchone()
        if head is None:
            return None
        era, head = head[0], head[1:]
        appended = Appended()
        appended.rider_values = run_apart(cursor, riders)
        if not records:
            return appended
        prev_hash = head[0] or GENESIS
        chain, params = [], []
        for seq, record, body in zip(range(version + 1, version + len(records) + 1), records, bodies, strict=True):
            digest = _sha256(prev_hash, body)
            chain.append((seq, record, prev_hash, digest))
            params += [db_table_id, seq, record.type, json.dumps(record.data), json.dumps(record.secret)]
            params += [record.actor, record.hand_no, connection.ops.adapt_datetimefield_value(now), prev_hash, digest]
            params += [HASH_VERSION, era]
            prev_hash = digest
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(records))
        cursor.execute(f"INSERT INTO {event} ({_EVENT_COLUMNS}) VALUES {values} RETURNING id", params)
        appended.extend(
            _recorded(pk, table_id, seq, record, now, prev, digest)
            for (seq, record, prev, digest), (pk,) in zip(chain, cursor.fetchall(), strict=True)
        )
        return appended


_EVENT_COLUMNS = "table_id, seq, type, data, secret, actor, hand_no, created_at, prev_hash, hash, hash_version, era"


@functools.cache
def _body_names(n: int) -> tuple[str, ...]:
    return tuple(f"b{i}" for i in range(1, n + 1))


@functools.cache
def _postgres_append_sql(n: int, columns: tuple[str, ...] = (), riders: tuple[tuple[str, str | None], ...] = ()) -> str:
    """One statement appending ``n`` events: h0 moves the version (compare-and-set, row lock) and
    yields the chain head and the table's era (the events' partition, the only one the head is read
    from and the events go to); h1..hn hash each event's canonical body onto the one before it, and
    the event's columns are read from that body; r0.. are the riders (``Rider``), each taking its row
    from h0 (nothing is written when the version has moved on), returning its value with each event."""
    table, event = Table._meta.db_table, Event._meta.db_table
    hashes = [
        f"h0 AS (UPDATE {table} SET version = %(to)s{_set_clause(columns, lambda i: f'%(c{i})s')} "
        f"WHERE id = %(table)s AND version = %(at)s "
        f"RETURNING coalesce((SELECT hash FROM {event} e WHERE e.table_id = %(table)s AND e.seq = %(at)s "
        f"AND e.era = {table}.era), %(genesis)s::text) AS h, era)"
    ]
    hashes += [
        f"h{i} AS (SELECT encode(sha256(convert_to(h{i - 1}.h || %(b{i})s::text, 'UTF8')), 'hex') AS h, "
        f"%(b{i})s::jsonb AS e, h{i - 1}.era FROM h{i - 1})"
        for i in range(1, n + 1)
    ]
    selects = [
        f"SELECT %(table)s::uuid, (h{i}.e->>'seq')::integer, h{i}.e->>'type', h{i}.e->'data', h{i}.e->'secret', "
        f"h{i}.e->>'actor', (h{i}.e->>'hand_no')::integer, (h{i}.e->>'created_at')::timestamptz, h{i - 1}.h, h{i}.h, "
        f"%(v)s::smallint, h{i}.era "
        f"FROM h{i - 1}, h{i}"
        for i in range(1, n + 1)
    ]
    hashes += [f"r{i} AS MATERIALIZED ({sql.format(p=f'r{i}_', h0='FROM h0')})" for i, (sql, _) in enumerate(riders)]
    # A rider that returns nothing is still named, or PostgreSQL would not run a plain SELECT.
    returned = "".join(f", (SELECT {value or 'count(*)'} FROM r{i})" for i, (_, value) in enumerate(riders))
    return (
        f"WITH {', '.join(hashes)} INSERT INTO {event} ({_EVENT_COLUMNS}) "
        f"{' UNION ALL '.join(selects)} RETURNING id, seq, prev_hash, hash{returned}"
    )


def _recorded(pk: Any, table_id: Any, seq: int, record: NewEvent, now: Any, prev_hash: str, digest: str) -> Recorded:
    return Recorded(
        pk, table_id, seq, record.type, record.data, record.secret, record.actor, record.hand_no, now, prev_hash, digest
    )


# --- reading ------------------------------------------------------------------------------

# The columns of a stored event, in the order of ``Recorded``'s fields.
RECORDED_FIELDS = tuple(field.name for field in dataclasses.fields(Recorded))


def _events_of(table: Table | UUID | str) -> QuerySet[Event]:
    """The table's stored events; given the table row, only its era's partition is read (on
    PostgreSQL the events are partitioned by era, ``games.partitions``)."""
    if isinstance(table, Table):
        return Event.objects.filter(table_id=table.pk, era=table.era)
    return Event.objects.filter(table_id=table)


def _tail(table: Table, after: int, at: int | None) -> QuerySet[Event, tuple[Any, ...]]:
    """The table's stored events after ``after`` up to ``at`` (or the last), in order, as rows of
    ``RECORDED_FIELDS``: one ordered query."""
    events = _events_of(table).filter(seq__gt=after)
    if at is not None:
        events = events.filter(seq__lte=at)
    return events.order_by("seq").values_list(*RECORDED_FIELDS)


def _tail_now(table: Table, after: int, at: int | None) -> list[tuple[Any, ...]]:
    """``_tail`` read at once, its SQL built once: the read on every command's path."""
    key = Table._meta.pk.get_db_prep_value(table.pk, connection)
    where, params = "a.table_id = %s AND a.era = %s AND a.seq > %s", [key, table.era, after]
    if at is not None:
        where, params = where + " AND a.seq <= %s", [*params, at]
    return select_values(Event, RECORDED_FIELDS, where + " ORDER BY a.seq", params)


@dataclasses.dataclass(frozen=True, slots=True)
class Tail:
    """The events of a table after version ``after`` as one read saw them, in order (``tail_read``)."""

    after: int
    rows: list[Recorded]


def tail_read(table_id: UUID, after: int) -> Scalar:
    """The events of ``table_id`` after version ``after`` as a scalar subquery (PostgreSQL), for a
    statement that reads the table's row to read them too (``games.play.unit.open_table``); its
    value is a ``Tail``. Under a lock that waited it may miss the events of the writer it waited
    for: ``load`` reads those after it."""
    key = Table._meta.pk.get_db_prep_value(table_id, connection)
    return Scalar(_tail_sql(), (key, after, key), functools.partial(_tail_of, after))


@functools.cache
def _tail_sql() -> str:
    qn = connection.ops.quote_name
    event, table = qn(Event._meta.db_table), qn(Table._meta.db_table)
    columns = ", ".join(f"e.{qn(Event._meta.get_field(name).column)}" for name in ("id", *RECORDED_FIELDS[1:]))
    # The era names the table's one partition (games.partitions); read from its row, once.
    return (
        f"(SELECT json_agg(json_build_array({columns}) ORDER BY e.seq) FROM {event} e "
        f"WHERE e.table_id = %s AND e.seq > %s AND e.era = (SELECT t.era FROM {table} t WHERE t.id = %s))"
    )


def _tail_of(after: int, value: list[list[Any]] | None) -> Tail:
    """The ``Tail`` of ``tail_read``'s JSON: ids, times and the table's id made what a read of the
    rows gives."""
    rows = [
        Recorded(
            pk, UUID(table_id), seq, type_, data, secret, actor, hand_no, dt.datetime.fromisoformat(at), prev, digest
        )
        for pk, table_id, seq, type_, data, secret, actor, hand_no, at, prev, digest in value or ()
    ]
    return Tail(after, rows)


def _base(table: Table, decider: Decider, at: int | None) -> tuple[int, Any]:
    """Where a fold up to ``at`` (``None``: the end) starts: the latest snapshot at or below it, as
    ``(version, state)``, or the table's initial state at version 0."""
    snapshots = Snapshot.objects.filter(table_id=table.pk)
    if at is not None:
        snapshots = snapshots.filter(version__lte=at)
    snapshot = snapshots.order_by("-version").values_list("version", "state").first()
    if snapshot is None:
        return 0, decider.initial_state(table.config)
    return snapshot[0], decode_state(decider.state_type, snapshot[1])


def load(
    *, table: Table, decider: Decider, at: int | None = None, cache: bool = True, tail: Tail | None = None
) -> tuple[Any, int]:
    """The state of ``table`` and its version: now, or just after event ``at``.

    Starts from the latest snapshot at or below that point (or, for the current state, the cached
    state if newer) and replays the events after it. Loading the current state writes a snapshot
    when it had to replay ``settings.SNAPSHOT_EVERY`` events or more. ``tail``: the events after
    the cached state, read with the table's row (``tail_read``); only those it misses are read.
    """
    table_id = table.pk
    base: tuple[int, Any] | None = _cached(table_id, decider) if cache and at is None else None
    if base is not None and table.version - base[0] > settings.SNAPSHOT_EVERY:
        # Held since long ago (the table moved on in other processes): the latest snapshot, which
        # loads write every SNAPSHOT_EVERY events, is nearer than a fold of everything since.
        base = None
    from_cache = base is not None
    if base is None:
        base = _base(table, decider, at)
    rows = _newer(table, base[0], at, tail if from_cache else None)
    version, state = base
    try:
        for step in fold(decider, state, rows):
            version, state = step.row.seq, step.after
    except ReplayFailed as failure:
        # Loading raises what the game raised, as it always did; naming the event is for walks.
        raise failure.error from None
    if at is None:
        if len(rows) >= settings.SNAPSHOT_EVERY:
            save_snapshot(table, version, state)
        if cache and (rows or not from_cache):
            remember(table_id, decider, version, state)
    return state, version


def _newer(table: Table, after: int, at: int | None, tail: Tail | None) -> list[Recorded]:
    """The events after ``after`` (up to ``at``) a load folds: none once ``after`` has reached the
    version the caller read (under its lock, when writing); those of ``tail`` that are newer, if it
    starts early enough; and what is still missing, read now."""
    upto = table.version if at is None else at
    if after >= upto:
        return []
    rows: list[Recorded] = []
    if tail is not None and tail.after <= after:
        rows = [row for row in tail.rows if after < row.seq <= upto]
        after = rows[-1].seq if rows else after
        if after >= upto:
            return rows
    return rows + [Recorded(*row) for row in _tail_now(table, after, at)]


def walk(
    table: Table,
    decider: Decider,
    *,
    after: int = 0,
    upto: int | None = None,
    hand_no: int | None = None,
    snapshot: bool = False,
) -> Iterator[Step]:
    """The steps of ``table``'s stored events after ``after`` up to ``upto`` (default: the last),
    or of hand ``hand_no``'s events (its first to its last), in order: each event with the state
    before and after it. One ordered query, iterated; ``ReplayFailed`` names the first event that
    does not decode or apply.

    The fold starts from the table's first event (a check of its history needs every event folded
    through the rules), or with ``snapshot`` from the latest snapshot at or below ``after``: exact,
    since a snapshot is the fold it saved (``check_replay`` proves it), and cheap, as only the
    events from there are read. Events up to ``after`` are folded, not yielded.
    """
    if hand_no is not None:
        seqs = _events_of(table).filter(hand_no=hand_no).aggregate(first=Min("seq"), last=Max("seq"))
        if seqs["first"] is None:
            return
        after, upto = seqs["first"] - 1, seqs["last"]
    version, state = _base(table, decider, after) if snapshot else (0, decider.initial_state(table.config))
    rows = _tail(table, version, upto).iterator(chunk_size=2000)
    try:
        for step in fold(decider, state, (Recorded(*row) for row in rows)):
            if step.row.seq > after:
                yield step
    finally:
        # Closes the cursor now, even when a step fails or the caller stops early: a failure's
        # traceback would keep it open until the process ends, past the connection it reads.
        rows.close()  # type: ignore[attr-defined]


def save_snapshot(table: Table | UUID | str, version: int, state: Any) -> None:
    """Keep ``state`` as the table's snapshot at ``version``. Two loaders racing to write the same
    snapshot is fine: the second is ignored (no exception, so a surrounding transaction survives)."""
    Snapshot.objects.bulk_create(
        [Snapshot(table_id=_table_id(table), version=version, state=encode_state(state))], ignore_conflicts=True
    )


def snapshot_with(table: Table, version: int, state: Any) -> Rider:
    """``save_snapshot`` as a statement written with the append that takes ``table`` to
    ``version`` (``Rider``)."""
    row = {"table": table.pk, "version": version, "state": encode_state(state), "created_at": timezone.now()}
    return inserted(Snapshot, [row], ignore_conflicts=True)


def replay_from_scratch(table: Table, decider: Decider) -> tuple[Any, int]:
    """The state of ``table`` folded from its very first event, ignoring snapshots and cache;
    ``ReplayFailed`` names the first event that does not decode or apply."""
    state, version = decider.initial_state(table.config), 0
    for step in walk(table, decider):
        state, version = step.after, step.row.seq
    return state, version


def events_after(table: Table | UUID | str, after: int, limit: int | None = None) -> QuerySet[Event]:
    """The table's events with ``seq > after`` in order, at most ``limit`` of them."""
    events = _events_of(table).filter(seq__gt=after).order_by("seq")
    return events[:limit] if limit is not None else events
