"""A table under its row lock, with what a command needs of it, loaded once and carried down.

The row lock serialises every writer of a table: two commands never decide on the same version,
and a seat cannot be taken twice. ``Locked`` is that row with its seats (and their users), its
game, and its state and version; every step of the write path reads them from here rather than
reading them again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import connection

from games import selectors, settlement, store
from games.engine import registry
from games.engine.words import T
from games.errors import NotFound
from games.models import Seat, Table, table_uuid
from games.play.seeds import Newest, newest_read
from games.states import cached_version
from ledger.rows import Scalar, lock_clause, select_rows, select_tree


@dataclass(frozen=True, slots=True)
class Locked:
    """The locked table row, its seats by number with their users, its game, state and version."""

    table: Table
    seats: tuple[Seat, ...]
    decider: Any
    state: Any
    version: int
    # What a command works out once from the above, kept for its other steps (``extra``).
    memo: dict[str, Any] = field(default_factory=dict, compare=False)
    # The caller's own reads made with the lock's statement (``open_table``), or ``None`` if they
    # could not ride it.
    read_with: tuple[Any, ...] | None = None
    # The table's newest hand seeds, read with the lock (``open_table``), for ``seeds.hand_seeds``.
    newest_seeds: Newest | None = None

    def extra(self) -> Mapping[str, Any]:
        """The facts from outside the game that its rules depend on (``settlement.context_extra``),
        read once per command: nothing the command does changes them before its events are in."""
        found = self.memo.get("extra")
        if found is None:
            found = self.memo["extra"] = settlement.context_extra(self.table, self.seats)
        return found

    @property
    def bots(self) -> frozenset[int]:
        """The seats the table's bot plays: bots' seats, and players' who sat out or left (CM-20)."""
        return frozenset(s.number for s in self.seats if s.bot) | frozenset(self.decider.played_by_bot(self.state))

    @property
    def people(self) -> dict[int, Any]:
        """The user id of each seat a person holds, by seat number."""
        return {s.number: s.user_id for s in self.seats if s.user_id is not None}

    def seat_of(self, user) -> Seat | None:
        """``user``'s seat at this table, if they hold one."""
        return next((s for s in self.seats if s.user_id == user.pk), None)

    def moved(self, state: Any, version: int) -> Locked:
        """The same table once a command's events are folded in: its new state and version."""
        return replace(self, state=state, version=version)


def lock(table_id) -> Table:
    """The table row under its lock, with its owner for the answer's view (only the table's row is
    locked); ``NotFound`` if there is no such table."""
    key = Table._meta.pk.get_db_prep_value(table_uuid(table_id), connection)
    found = select_rows(Table, f"a.id = %s{lock_clause()}", [key], related="owner")
    if not found:
        raise NotFound(T("There is no table {table}.", table=str(table_id)))
    return found[0]


def load(
    table: Table,
    seats: list[Seat] | None = None,
    *,
    tail: store.Tail | None = None,
    read_with: tuple[Any, ...] | None = None,
    newest_seeds: Newest | None = None,
) -> Locked:
    """``table`` (under its lock, when writing) with its seats, game, state and version. The seats
    do not change while a table runs; the read side's answer (``selectors.seat_rows``) finds them
    on the row, so a command and its answer read them once. ``seats``: already read with the row;
    ``tail``: the events after the cached state, too (``store.load``)."""
    if seats is None:
        seats = selectors.seat_rows(table)
    else:
        table.__dict__["_seat_rows"] = seats
    decider = registry.get(table.game)
    state, version = store.load(table=table, decider=decider, tail=tail)
    return Locked(
        table=table,
        seats=tuple(seats),
        decider=decider,
        state=state,
        version=version,
        read_with=read_with,
        newest_seeds=newest_seeds.as_of(table.version) if newest_seeds is not None else None,
    )


def open_table(table_id, *, reads: Sequence[Scalar] = ()) -> Locked:
    """The table ``table_id`` under its lock, loaded: the row with its owner and its seats with
    their users in one statement; ``NotFound`` if there is no such table. On PostgreSQL the events
    after the state this process holds are read in it too, and the caller's ``reads``, whose values
    are then ``Locked.read_with``.

    The seats' rows are locked with the table's: a statement that waited for the table's lock
    then reads the seats as the writer it waited for left them (a client seed set meanwhile), as
    PostgreSQL reads again only the rows it locks. What else it reads is as it was before the wait
    (``Scalar``): ``store.load`` reads the events it missed, ``seeds.hand_seeds`` looks for seeds
    it cannot tell are missing. A table without seats (none taken yet) is read the way ``lock`` and
    ``load`` read it."""
    table_key = table_uuid(table_id)
    key = Table._meta.pk.get_db_prep_value(table_key, connection)
    features = connection.features
    clause = " FOR UPDATE OF a, c" if features.has_select_for_update_of else lock_clause()
    scalars: list[Scalar] = []
    riding = connection.vendor == "postgresql"
    if riding:
        after = cached_version(table_key)
        scalars = [*reads, newest_read(table_key), *([store.tail_read(table_key, after)] if after is not None else [])]
    found = select_tree(
        Table,
        "owner",
        Seat,
        "table",
        "user",
        f"a.id = %s ORDER BY c.number{clause}",
        [key],
        inner=True,
        scalars=scalars,
    )
    if found is None:
        return load(lock(table_id))
    table, seats, values = found
    if not riding:
        return load(table, seats)
    newest, *tail = values[len(reads) :]
    return load(
        table, seats, tail=tail[0] if tail else None, read_with=tuple(values[: len(reads)]), newest_seeds=newest
    )


def table_state(table: Table, *, at: int | None = None) -> tuple[Any, int]:
    """The replayed state of a table and its version (now, or at an earlier version), for a read."""
    return store.load(table=table, decider=registry.get(table.game), at=at)
