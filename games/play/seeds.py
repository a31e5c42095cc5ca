"""Hand seeds: made and committed ahead (CM-5), and remembered by each process once committed.

A hand's server seed and commitment never change once made (only its client seed and reveal time
are filled in later, and commands do not read those), so each process keeps the committed ones:
most commands then need no seed query.
"""

from __future__ import annotations

import functools
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from games import store
from games.engine import fairness
from games.models import HandSeed, Table
from games.riders import inserted
from ledger.rows import Scalar, insert_rows, placeholders, select_values

# Keyed by (table id, hand number).
_SEED_CACHE_SIZE = 4096
_seed_cache: dict[tuple[Any, int], tuple[bytes, str]] = {}
_seed_cache_lock = threading.Lock()


def make_seeds(table: Table, hands: Sequence[int]) -> dict[int, tuple[bytes, str]]:
    """New seeds for ``hands``, which have none yet (a new table's first two, a hand's that a command
    found missing), stored in one statement; ``{hand_no: (server_seed, commitment)}``."""
    made = _new_seeds(hands)
    _store(table, made)
    return made


def _new_seeds(hands: Sequence[int]) -> dict[int, tuple[bytes, str]]:
    made = {}
    for hand_no in hands:
        seed = secrets.token_bytes(fairness.SEED_BYTES)
        made[hand_no] = (seed, fairness.commitment(seed))
    return made


def _store(table: Table, made: dict[int, tuple[bytes, str]]) -> None:
    insert_rows(
        [
            HandSeed(table=table, hand_no=n, server_seed=seed, commitment=commitment)
            for n, (seed, commitment) in made.items()
        ]
    )


def stored_with(table: Table, newest: Newest | None, records: Sequence[store.NewEvent]) -> store.Rider | None:
    """The seeds a command made (``Newest.unwritten``), as a statement written with its events
    (``store.Rider``); ``None`` when there are none, or when its events deal or reveal one of them:
    ``recorded_with`` then updates that seed's row, which a statement beside the insert would not
    see, so they are stored now, before the events."""
    made = newest.unwritten if newest is not None else {}
    if not made:
        return None
    dealt, revealed = _told(records)
    if made.keys() & {*dealt, *revealed}:
        _store(table, made)
        return None
    rows = [
        {
            "table": table.pk,
            "hand_no": n,
            "server_seed": seed,
            "commitment": commitment,
            "client_seed": "",
            "revealed_at": None,
        }
        for n, (seed, commitment) in sorted(made.items())
    ]
    return inserted(HandSeed, rows)


def forget_seeds() -> None:
    """Drop the process's remembered seeds (after a database is restored or recreated)."""
    with _seed_cache_lock:
        _seed_cache.clear()


@dataclass(slots=True)
class Newest:
    """What one command knows of its table's hand seeds: ``{hand_no: (server_seed, commitment)}``
    of the newest, as the lock's statement read them (``newest_read``), and the highest hand that
    has a seed (0: none). ``hand_seeds`` adds what it reads and makes, so a later step of the same
    command never makes a seed twice. ``top`` is ``None`` when absence cannot be told from the
    read: it saw the table at another version than the lock holds (it waited for a writer, who may
    have made seeds)."""

    seeds: dict[int, tuple[bytes, str]]
    top: int | None
    seen_version: int
    # Made by this command and not stored yet: they are written with its events (``stored_with``).
    unwritten: dict[int, tuple[bytes, str]] = field(default_factory=dict)

    def as_of(self, version: int) -> Newest:
        """These seeds, for a table locked at ``version``."""
        if self.seen_version != version:
            self.top = None
        return self


def newest_read(table_id: Any) -> Scalar:
    """The table's two newest hand seeds as a scalar subquery (PostgreSQL), for the statement that
    locks the table to read them too, with the table's version as that read saw it; its value is a
    ``Newest``. A command asks for the seeds of the next hand and the one after (``hand_seeds``):
    once a command of the hand in play has run, they are the newest two, and a hand above the
    newest has none yet."""
    key = Table._meta.pk.get_db_prep_value(table_id, connection)
    return Scalar(_newest_sql(), (key, key), _newest_of)


@functools.cache
def _newest_sql() -> str:
    qn = connection.ops.quote_name
    seeds, table = qn(HandSeed._meta.db_table), qn(Table._meta.db_table)
    return (
        f"json_build_array((SELECT t.version FROM {table} t WHERE t.id = %s), "
        "(SELECT json_agg(json_build_array(s.hand_no, encode(s.server_seed, 'hex'), s.commitment)) FROM "
        f"(SELECT n.hand_no, n.server_seed, n.commitment FROM {seeds} n "
        "WHERE n.table_id = %s ORDER BY n.hand_no DESC LIMIT 2) s))"
    )


def _newest_of(value: list[Any]) -> Newest:
    seen_version, rows = value
    seeds = {hand_no: (bytes.fromhex(seed), commitment) for hand_no, seed, commitment in rows or ()}
    return Newest(seeds, max(seeds, default=0), seen_version)


def hand_seeds(table: Table, *hands: int, newest: Newest | None = None) -> dict[int, tuple[bytes, str]]:
    """``{hand_no: (server_seed, commitment)}`` of ``hands``, made if missing. ``newest``: the
    table's newest seeds, read with its row under the lock, which serve without a read of their own;
    a hand above them has none yet, and is made without looking."""
    with _seed_cache_lock:
        seeds = {n: _seed_cache[(table.pk, n)] for n in hands if (table.pk, n) in _seed_cache}
    if len(seeds) == len(hands):
        return seeds
    # Every earlier hand got its seeds when it was next; only these can be missing.
    wanted = [n for n in hands if n not in seeds]
    found: dict[int, tuple[bytes, str]] = {}
    unknown = wanted
    if newest is not None:
        found = {n: newest.seeds[n] for n in wanted if n in newest.seeds}
        top = newest.top
        unknown = [n for n in wanted if n not in found and (top is None or n <= top)]
    if unknown:
        key = Table._meta.pk.get_db_prep_value(table.pk, connection)
        where = f"a.table_id = %s AND a.hand_no IN ({placeholders(len(unknown))})"
        read = select_values(HandSeed, ("hand_no", "server_seed", "commitment"), where, [key, *unknown])
        found.update({n: (bytes(seed), commitment) for n, seed, commitment in read})
    if len(found) < len(wanted):
        # The new ones made here are known: no statement to look for them or read them back. With
        # the lock's read, they are written with the command's events (``stored_with``).
        missing = [n for n in wanted if n not in found]
        made = _new_seeds(missing) if newest is not None else make_seeds(table, missing)
        if newest is not None:
            newest.unwritten.update(made)
        found.update(made)
    if newest is not None:
        newest.seeds.update(found)
        if newest.top is not None:
            newest.top = max(newest.top, *found)
    seeds.update(found)
    transaction.on_commit(lambda: _keep(table.pk, found))
    return seeds


def _keep(table_id: Any, found: dict[int, tuple[bytes, str]]) -> None:
    # Only once committed: a rolled-back command's new seeds never existed.
    with _seed_cache_lock:
        if len(_seed_cache) + len(found) > _SEED_CACHE_SIZE:
            _seed_cache.clear()
        _seed_cache.update({(table_id, n): seed for n, seed in found.items()})


def _told(records: Sequence[store.NewEvent]) -> tuple[dict[int, str], list[int]]:
    """What ``records`` tell of the hands' seeds: each dealt hand's client seed, and the hands whose
    server seed they show."""
    client_seeds: dict[int, str] = {}
    revealed: list[int] = []
    for record in records:
        if "client_seed" in record.data and "commitment" in record.data and record.hand_no:
            client_seeds[record.hand_no] = record.data["client_seed"]
        if record.data.get("server_seed"):
            revealed.append(record.hand_no)
    return client_seeds, revealed


def recorded_with(table: Table, records: Sequence[store.NewEvent]) -> store.Rider | None:
    """What the events ``records`` tell of the hands' seeds, as one statement written with them
    (``store.Rider``): each dealt hand's client seed, and the reveal time of each hand whose server
    seed an event shows (once: a revealed seed keeps its first time). ``None`` if they tell nothing."""
    client_seeds, revealed = _told(records)
    if not client_seeds and not revealed:
        return None
    postgres = connection.vendor == "postgresql"

    def cast(kind: str) -> str:
        return f"::{kind}" if postgres else ""

    qn = connection.ops.quote_name
    params: dict[str, object] = {"table": HandSeed._meta.get_field("table").get_db_prep_value(table.pk, connection)}
    sets = []
    if client_seeds:
        cases = []
        for i, (hand_no, seed) in enumerate(client_seeds.items()):
            params[f"h{i}"], params[f"s{i}"] = hand_no, seed
            cases.append(f"WHEN %({{p}}h{i})s{cast('integer')} THEN %({{p}}s{i})s{cast('text')}")
        sets.append(f"{qn('client_seed')} = CASE {qn('hand_no')} {' '.join(cases)} ELSE {qn('client_seed')} END")
    if revealed:
        shown = []
        for i, hand_no in enumerate(revealed):
            params[f"r{i}"] = hand_no
            shown.append(f"%({{p}}r{i})s{cast('integer')}")
        params["now"] = HandSeed._meta.get_field("revealed_at").get_db_prep_save(timezone.now(), connection)
        sets.append(
            f"{qn('revealed_at')} = CASE WHEN {qn('hand_no')} IN ({', '.join(shown)}) "
            f"AND {qn('revealed_at')} IS NULL THEN %({{p}}now)s{cast('timestamptz')} ELSE {qn('revealed_at')} END"
        )
    hands = sorted({*client_seeds, *revealed})
    params.update({f"w{i}": hand_no for i, hand_no in enumerate(hands)})
    wanted = ", ".join(f"%({{p}}w{i})s{cast('integer')}" for i in range(len(hands)))
    sql = (
        f"UPDATE {qn(HandSeed._meta.db_table)} SET {', '.join(sets)} {{h0}} "
        f"WHERE {qn('table_id')} = %({{p}}table)s{cast('uuid')} AND {qn('hand_no')} IN ({wanted}) "
        f"RETURNING {qn(HandSeed._meta.db_table)}.{qn('hand_no')}"
    )
    return store.Rider(sql, params)
