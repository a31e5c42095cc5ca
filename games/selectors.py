"""Reads: what a caller may see of tables and their events. Hidden information leaves only
through the game's ``view`` and ``view_event``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, FilteredRelation, Min, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games import actors, notify, results, store
from games.engine import registry
from games.engine.codec import decode_event
from games.engine.decider import event_types_by_name
from games.engine.words import T
from games.errors import NotFound
from games.models import HandSeed, Seat, Table, table_uuid
from games.offers import offered
from games.states import cached_version
from games.words import name_seats
from ledger.models import Payout
from ledger.rows import Compiled, Scalar, select_rows_and
from ledger.times import rfc3339, seconds_left
from ledger.units import money_shown


def get_table(table_id) -> Table:
    """The table ``table_id``; ``NotFound`` if there is none (or the id is malformed)."""
    return _one_table(_TABLES, table_id)


def table_to_view(table_id) -> Table:
    """``get_table`` for ``table_view``: in the same statement its owner and its two newest hand
    seeds (each one's number and commitment), among which ``table_view`` finds the next hand's
    commitment: a command seeds the hand it deals and the one after. Then its seats, and in the
    same statement the events after the state this process holds, if that is behind the row
    (another process moved the table): ``table_view`` folds them without a read of its own."""
    table = _one_table(_TABLES_TO_VIEW, table_id)
    after = cached_version(table.pk) if connection.vendor == "postgresql" else None
    # A state held since long ago is not brought up from its tail (``store.load`` starts from the
    # latest snapshot instead): the tail of a table that moved on elsewhere can be its whole history.
    near = after is not None and after < table.version and table.version - after <= settings.SNAPSHOT_EVERY
    tail = [store.tail_read(table.pk, after)] if near else []
    values = _read_seats(table, tail)
    if tail and values:
        table.__dict__["_tail"] = values[0]
    return table


def _one_table(read: Compiled, table_id) -> Table:
    found = read.run(Table._meta.pk.get_db_prep_value(table_uuid(table_id), connection))
    if not found:
        raise NotFound(T("There is no table {table}.", table=str(table_id)))
    return found[0]


def _tables_to_view(pk) -> QuerySet[Table]:
    newest = HandSeed.objects.filter(table=OuterRef("pk")).order_by("-hand_no")
    return (
        Table.objects.select_related("owner")
        .annotate(
            **{
                f"{SEEDS_READ}{place}_{name}": Subquery(newest.values(name)[place : place + 1])
                for place in range(2)
                for name in ("hand_no", "commitment")
            }
        )
        .filter(pk=pk)
    )


# Compiled once: every request and stream wake reads a table, and the table GET's subqueries cost
# more to compile than to run.
_TABLES = Compiled(lambda pk: Table.objects.filter(pk=pk), uuid.UUID(int=1), uuid.UUID(int=2))
_TABLES_TO_VIEW = Compiled(_tables_to_view, uuid.UUID(int=1), uuid.UUID(int=2))


def tables_for(user, *, status: str | None = None, game: str | None = None) -> QuerySet[Table]:
    """Open tables anyone can join, and every table the user sits at or owns."""
    tables = Table.objects.filter(Q(status=Table.Status.OPEN) | Q(seat_set__user=user) | Q(owner=user)).distinct()
    if status:
        tables = tables.filter(status=status)
    if game:
        tables = tables.filter(game=registry.slug_of(game))
    return tables.order_by("-created_at")


def seat_of(table: Table, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).values_list("number", flat=True).first()


def seat_among_rows(table: Table, user) -> int | None:
    """``seat_of``, found among ``seat_rows``: no statement of its own where the seats are read
    anyway (a table's view and its events name every seat's player)."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat.number for seat in seat_rows(table) if seat.user_id == user.pk), None)


def seat_rows(table: Table) -> list[Seat]:
    """The table's seats with their users, read once per ``Table`` instance: a command and the view
    it answers with ask for them several times, and seats do not change while a game runs."""
    if "_seat_rows" not in table.__dict__:
        _read_seats(table)
    return table.__dict__["_seat_rows"]


def _read_seats(table: Table, scalars: Sequence[Scalar] = ()) -> list[Any] | None:
    """Read the table's seats (kept on it for ``seat_rows``) and, in the same statement,
    ``scalars``, whose values are returned (``None`` if the table has no seat to carry them)."""
    key = Table._meta.pk.get_db_prep_value(table.pk, connection)
    rows, values = select_rows_and(Seat, "a.table_id = %s ORDER BY a.number", [key], related="user", scalars=scalars)
    table.__dict__["_seat_rows"] = rows
    return values


def player_names(table: Table) -> dict[int, str]:
    """Each taken seat's player as a reader knows them: the username, or "bot (seat 2)"."""
    return {
        seat.number: seat.user.username if seat.user else T("bot (seat {seat})", seat=seat.number)
        for seat in seat_rows(table)
    }


def seat_words(table: Table) -> list[str]:
    """Every seat of the table as a reader knows it, by number: its player, or "seat 3" if empty."""
    taken = player_names(table)
    return [taken.get(number, T("seat {seat}", seat=number)) for number in range(table.seats)]


def seats(table: Table, played_by_bot: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """Who sits where; ``played_by_bot`` is true for a bot's seat and for the seat of a player who
    sat out or left (CM-20)."""
    by_number = {s.number: s for s in seat_rows(table)}
    return [
        {
            "seat": n,
            "player": (by_number[n].user.username if by_number[n].user else None) if n in by_number else None,
            "bot": by_number[n].is_bot if n in by_number else False,
            "taken": n in by_number,
            "played_by_bot": n in by_number and (by_number[n].is_bot or n in played_by_bot),
        }
        for n in range(table.seats)
    ]


def table_summary(table: Table) -> dict[str, Any]:
    """One line of the tables list: ``seats`` is the number of seats (the table's view lists them)."""
    return {
        "id": str(table.pk),
        "game": registry.slug_of(table.game),
        "status": table.status,
        "seats": table.seats,
        "version": table.version,
        "owner": table.owner.username,
        "currency": table.currency or None,
        "created_at": rfc3339(table.created_at),
    }


def is_owner(table: Table, viewer) -> bool:
    """True when ``viewer`` (a user, or ``None``) owns ``table``."""
    return viewer is not None and viewer.is_authenticated and viewer.pk == table.owner_id


def table_view(
    table: Table,
    seat: int | None,
    *,
    state=None,
    next_commitment: str | None = None,
    viewer=None,
    at: int | None = None,
) -> dict[str, Any]:
    """The caller's view of a table: public facts, the game's view for the seat, whose turn it is,
    the deadline and the caller's legal actions: what ``offered_actions`` offers the caller
    (``viewer``, the user who asks) at ``seat`` while the table runs, the very list the service
    accepts from them. ``at``: the version ``state`` is at, when it is not the row's (a state
    loaded once for several seats' views, ``table_views``)."""
    decider = registry.get(table.game)
    version = table.version if at is None else at
    if state is None:
        # The state is loaded after the row was read, so other writers may have moved it on: report
        # the version the state is at, or a client acting on this view would meet a conflict.
        state, version = store.load(table=table, decider=decider, tail=table.__dict__.get("_tail"))
    started = table.status != Table.Status.OPEN
    to_act = list(decider.to_act(state)) if started else []
    next_hand = decider.hand_no(state) + 1
    upcoming = next_commitment
    if upcoming is None:
        upcoming = _commitment(table, next_hand, version)
    return {
        "id": str(table.pk),
        "game": registry.slug_of(table.game),
        "status": table.status,
        "version": version,
        "owner": table.owner.username,
        "config": money_shown(table.config, table.currency or None),
        "seats": seats(table, decider.played_by_bot(state) if started else frozenset()),
        "your_seat": seat,
        "state": money_shown(name_seats(decider.view(state, seat), player_names(table)), table.currency or None)
        if started
        else None,
        "to_act": to_act,
        "deadline": rfc3339(table.deadline_at),
        "seconds_left": seconds_left(table.deadline_at),
        "legal_actions": offered(table, seat_rows(table), decider, state, seat, owner=is_owner(table, viewer))
        if table.status == Table.Status.RUNNING
        else [],
        "next_commitment": upcoming,
        "created_at": rfc3339(table.created_at),
        "result": table.__dict__[RESULT_READ] if RESULT_READ in table.__dict__ else _result(table),
    }


# Where ``table_views`` keeps a table's result on the row it read, for each seat's view to share.
RESULT_READ = "_result"


def _result(table: Table) -> list[dict[str, Any]] | None:
    return results.table_result(table, seat_rows(table))


def table_views(table: Table, readers: Sequence[tuple[int | None, Any]]) -> list[dict[str, Any]]:
    """``table_view`` for each of ``readers`` (a seat and the user who asks), from one load of the
    state, one look for the next hand's commitment and one read of the result: the views of one
    moment of the table, whoever reads it. ``table`` is read by ``table_to_view``."""
    decider = registry.get(table.game)
    state, version = store.load(table=table, decider=decider, tail=table.__dict__.get("_tail"))
    table.__dict__[RESULT_READ] = _result(table)
    upcoming = _commitment(table, decider.hand_no(state) + 1, version)
    return [
        table_view(table, seat, state=state, next_commitment=upcoming, viewer=viewer, at=version)
        for seat, viewer in readers
    ]


# The prefix of the seeds ``table_to_view`` reads with a table's row.
SEEDS_READ = "newest_seed_"


def _commitment(table: Table, hand_no: int, version: int) -> str | None:
    """The commitment of hand ``hand_no``'s seed, if it has one yet. ``table_to_view`` read the
    table's two newest seeds with its row: while the state answered is the row's (``version``), the
    hand's seed is one of them, or comes after the newest (then there is none yet). Otherwise, and
    for an older hand, it is read."""
    read = table.__dict__
    if f"{SEEDS_READ}0_hand_no" in read and version == table.version:
        newest = read[f"{SEEDS_READ}0_hand_no"]
        if newest is None or hand_no > newest:
            return None
        for place in range(2):
            if read[f"{SEEDS_READ}{place}_hand_no"] == hand_no:
                return read[f"{SEEDS_READ}{place}_commitment"]
    return HandSeed.objects.filter(table=table, hand_no=hand_no).values_list("commitment", flat=True).first()


# What the caller's view of an event is made from, of each stored event.
EVENT_FIELDS = ("seq", "type", "data", "secret", "actor", "hand_no", "created_at")


def events_view(table: Table, seat: int | None, *, after: int = 0, limit: int = 500) -> list[dict[str, Any]]:
    """The caller's view of the events after ``after`` (at most ``limit``): each through the game's
    ``view_event``."""
    return event_items(table, seat, list(store.events_after(table, after, limit=limit).values_list(*EVENT_FIELDS)))


def event_items(table: Table, seat: int | None, rows: list[tuple[Any, ...]]) -> list[dict[str, Any]]:
    """The caller's view of stored events already read (rows of ``EVENT_FIELDS``), each through the
    game's ``view_event`` for ``seat``: one read of the rows can serve every seat."""
    decider = registry.get(table.game)
    types = event_types_by_name(decider)
    who = actors.describe(table, {row[4] for row in rows}, seat_rows(table))
    return [
        _event_item(
            decider,
            seat,
            seq,
            type_name,
            hand_no,
            who[actor],
            created_at,
            decode_event(types, type_name, data, secret),
            table.currency or None,
        )
        for seq, type_name, data, secret, actor, hand_no, created_at in rows
    ]


# The columns of a table the events GET needs (the rest is left deferred): read with each event.
EVENTS_TABLE_FIELDS = frozenset({"id", "game", "currency", "version"})


def table_and_events(table_id, *, after: int, limit: int) -> tuple[Table, list[tuple[Any, ...]]]:
    """The table (its id, game, currency and version) and its stored events after ``after``, at
    most ``limit`` (rows of ``EVENT_FIELDS``), in one statement: the table's row left-joined to
    those events. The version is read with the events, so it is never behind the last of them (a
    version read before them could be, when a command commits in between)."""
    names = [f.attname for f in Table._meta.concrete_fields if f.attname in EVENTS_TABLE_FIELDS]
    pk = table_uuid(table_id)
    # The table's era as a value of its own (an init plan), so that PostgreSQL reads the events of
    # that era's partition alone (games.partitions); as a join condition it would probe them all.
    era = Subquery(Table.objects.filter(pk=pk).values("era")[:1])
    rows = list(
        Table.objects.filter(pk=pk)
        .annotate(tail=FilteredRelation("events", condition=Q(events__seq__gt=after, events__era=era)))
        .order_by("tail__seq")
        .values_list(*names, *(f"tail__{name}" for name in EVENT_FIELDS))[:limit]
    )
    if not rows:
        raise NotFound(T("There is no table {table}.", table=str(table_id)))
    table = Table.from_db(connection.alias, names, rows[0][: len(names)])
    # A row without an event (seq NULL): there is none after ``after``.
    return table, [row[len(names) :] for row in rows if row[len(names)] is not None]


def events_page(
    table: Table,
    seat: int | None,
    *,
    after: int,
    limit: int,
    read: tuple[Table, list[tuple[Any, ...]]] | None = None,
) -> dict[str, Any]:
    """A page of the caller's events after ``after``: at most ``limit`` of them, whether more
    follow (``has_more``, and ``next_cursor`` to ask for them), and the table's ``version``, read
    with the events (``table_and_events``), so never behind the last event carried. ``read`` is
    what ``table_and_events`` gave for ``limit + 1`` events, if the caller has asked it already."""
    current, rows = read if read is not None else table_and_events(table.pk, after=after, limit=limit + 1)
    events = event_items(table, seat, rows)
    more = len(events) > limit
    events = events[:limit]
    version = max(current.version, events[-1]["seq"] if events else 0)
    return {
        "version": version,
        "results": events,
        "next_cursor": str(events[-1]["seq"]) if more else None,
        "has_more": more,
    }


def appended_events_view(table: Table, seat: int | None, rows, events) -> list[dict[str, Any]]:
    """``events_view`` of the events a command just appended: its stored ``rows`` with the game's
    ``events`` they were encoded from, without reading them back."""
    decider = registry.get(table.game)
    who = actors.describe(table, {row.actor for row in rows}, seat_rows(table))
    return [
        _event_item(
            decider, seat, row.seq, row.type, row.hand_no, who[row.actor], row.created_at, event, table.currency or None
        )
        for row, event in zip(rows, events, strict=True)
    ]


def _event_item(decider, seat, seq, type_name, hand_no, who, created_at, event, currency) -> dict[str, Any]:
    return {
        "seq": seq,
        "type": type_name,
        "hand_no": hand_no,
        **who,
        "created_at": rfc3339(created_at),
        "data": money_shown(decider.view_event(event, seat), currency),
    }


def wait_for_events(table: Table, after: int, wait: float) -> Table:
    """Long-poll: return as soon as the table is past version ``after``, or after ``wait`` seconds.
    The thread sleeps until the table's notice wakes it (games.notify), holding no connection."""
    seconds = min(max(wait, 0.0), settings.LONG_POLL_MAX_SECONDS)
    if table.version > after or seconds <= 0:
        return table
    return notify.wait_for_version(table, after, seconds)


def awaiting(user) -> list[dict[str, Any]]:
    """The running tables ``user`` sits at: each one's version, deadline and whether it waits for
    the user's seat now (what a person's stream says when it opens)."""
    found = []
    seated = Seat.objects.filter(user=user, table__status=Table.Status.RUNNING).select_related("table")
    for seat in seated:
        table = seat.table
        decider = registry.get(table.game)
        state, version = store.load(table=table, decider=decider)
        found.append(
            {
                "table": str(table.pk),
                "version": version,
                "seat": seat.number,
                "deadline": rfc3339(table.deadline_at) if version == table.version else None,
                # Not while the table's bot plays the seat (CM-20): the turn is the bot's.
                "your_turn": seat.number in decider.to_act(state) and seat.number not in decider.played_by_bot(state),
            }
        )
    return found


def action_result(outcome, seat: int | None, *, viewer=None) -> dict[str, Any]:
    """What an action returns: the new version, the caller's view of the events it appended, and
    the table as the caller (``viewer``) now sees it."""
    events = appended_events_view(outcome.table, seat, outcome.rows, outcome.events)
    return {
        "version": outcome.table.version,
        "events": events,
        "table": table_view(
            outcome.table, seat, state=outcome.state, next_commitment=outcome.next_commitment, viewer=viewer
        ),
    }


def operations_backlog() -> dict[str, float]:
    """What waits on the service or on staff, for the gauges of ``/metrics``: running tables whose
    deadline has passed (beat sweeps every SWEEP_SECONDS, so more than a few means the sweep is
    stuck), the age of the oldest of them, and the payouts waiting for a decision."""
    now = timezone.now()
    overdue = Table.objects.filter(status=Table.Status.RUNNING, deadline_at__lt=now).aggregate(
        count=Count("pk"), oldest=Min("deadline_at")
    )
    oldest = overdue["oldest"]
    return {
        "deadlines_overdue": overdue["count"],
        "oldest_overdue_seconds": (now - oldest).total_seconds() if oldest else 0.0,
        "payouts_pending": Payout.objects.filter(status=Payout.Status.PENDING).count(),
    }


def stalled() -> Q:
    """Running tables that nothing moves: a deadline passed, or a bot's turn not taken, more than
    ``STALLED_BOT_SECONDS`` ago. Beat's sweeps play a deadline within ``SWEEP_SECONDS`` and send a
    stalled bot turn again after ``STALLED_BOT_SECONDS``, so a table still here needs a person."""
    late = timezone.now() - timedelta(seconds=settings.STALLED_BOT_SECONDS)
    waiting = Q(deadline_at__lt=late) | Q(awaits_bot=True, updated_at__lte=late)
    return Q(status=Table.Status.RUNNING) & waiting
