"""Reads: what a caller may see of tables and their events. Hidden information leaves only
through the game's ``view`` and ``view_event``."""

from __future__ import annotations

import functools
import time
import uuid
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Model, Q, QuerySet

from games import store
from games.engine import decider as registry
from games.engine.decider import decode_event, event_types_by_name
from games.errors import NotFound
from games.models import HandSeed, Seat, Table


def table_uuid(table_id) -> uuid.UUID:
    """The table id as a UUID; a malformed id names no table."""
    try:
        return table_id if isinstance(table_id, uuid.UUID) else uuid.UUID(str(table_id))
    except ValueError:
        raise NotFound(f"There is no table {table_id}.") from None


def get_table(table_id) -> Table:
    try:
        return Table.objects.get(pk=table_uuid(table_id))
    except Table.DoesNotExist:
        raise NotFound(f"There is no table {table_id}.") from None


def tables_for(user, *, status: str | None = None, game: str | None = None) -> QuerySet[Table]:
    """Open tables anyone can join, and every table the user sits at or owns."""
    tables = Table.objects.filter(Q(status=Table.Status.OPEN) | Q(seat_set__user=user) | Q(owner=user)).distinct()
    if status:
        tables = tables.filter(status=status)
    if game:
        tables = tables.filter(game=game)
    return tables.order_by("-created_at")


def seat_of(table: Table, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(table=table, user=user).values_list("number", flat=True).first()


def seat_rows(table: Table) -> list[Seat]:
    """The table's seats with their users, read once per ``Table`` instance: a command and the view
    it answers with ask for them several times, and seats do not change while a game runs."""
    rows = table.__dict__.get("_seat_rows")
    if rows is None:
        key = Table._meta.pk.get_db_prep_value(table.pk, connection)
        rows = table.__dict__["_seat_rows"] = joined_rows(Seat, "user", "a.table_id = %s ORDER BY a.number", [key])
    return rows


@functools.cache
def _joined_layout(model: type[Model], related: str, vendor: str) -> tuple[str, list, list]:
    fk = model._meta.get_field(related)
    other = fk.related_model
    qn = connection.ops.quote_name
    own, theirs = model._meta.concrete_fields, other._meta.concrete_fields
    columns = [f"a.{qn(f.column)}" for f in own] + [f"b.{qn(f.column)}" for f in theirs]
    sql = (
        f"SELECT {', '.join(columns)} FROM {qn(model._meta.db_table)} a LEFT OUTER JOIN {qn(other._meta.db_table)} b "
        f"ON b.{qn(other._meta.pk.column)} = a.{qn(fk.column)} WHERE "
    )
    converters = []
    for alias, fields in (("a", own), ("b", theirs)):
        for field in fields:
            col = field.get_col(alias)
            found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            converters.append((col, found))
    their_pk = [f.attname for f in theirs].index(other._meta.pk.attname)
    return sql, converters, [fk, other, [f.attname for f in own], [f.attname for f in theirs], their_pk]


def lock_clause() -> str:
    """``FOR UPDATE`` of the ``a`` table of ``joined_rows``, where the database has row locks."""
    if not connection.features.has_select_for_update:
        return ""
    return " FOR UPDATE OF a" if connection.features.has_select_for_update_of else " FOR UPDATE"


def joined_rows(model: type[Model], related: str, where: str, params: list[Any]) -> list[Any]:
    """``model.objects.filter(...).select_related(related)`` for the hot reads of a command, with
    the SQL built once per process: Django's compiling of such a query costs several times the
    round trip. ``where`` uses ``a`` for the model's table (and may end in ORDER BY / FOR UPDATE)."""
    sql, converters, (fk, other, own_names, their_names, their_pk) = _joined_layout(model, related, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql + where, params)
        fetched = cursor.fetchall()
    alias, split, found = connection.alias, len(own_names), []
    for row in fetched:
        values = list(row)
        for i, (col, steps) in enumerate(converters):
            for step in steps:
                values[i] = step(values[i], col, connection)
        instance = model.from_db(alias, own_names, values[:split])
        theirs = values[split:]
        fk.set_cached_value(instance, None if theirs[their_pk] is None else other.from_db(alias, their_names, theirs))
        found.append(instance)
    return found


def seats(table: Table) -> list[dict[str, Any]]:
    by_number = {s.number: s for s in seat_rows(table)}
    return [
        {
            "seat": n,
            "player": (by_number[n].user.username if by_number[n].user else None) if n in by_number else None,
            "bot": by_number[n].is_bot if n in by_number else False,
            "taken": n in by_number,
        }
        for n in range(table.seats)
    ]


def table_view(table: Table, seat: int | None, *, state=None) -> dict[str, Any]:
    """The caller's view of a table: public facts, the game's view for the seat, whose turn it is,
    the deadline and the caller's legal actions."""
    decider = registry.get(table.game)
    version = table.version
    if state is None:
        # The state is loaded after the row was read, so other writers may have moved it on: report
        # the version the state is at, or a client acting on this view would meet a conflict.
        state, version = store.load(table=table, decider=decider)
    started = table.status != Table.Status.OPEN
    to_act = list(decider.to_act(state)) if started else []
    next_hand = getattr(state, "hand_no", 0) + 1
    upcoming = table.__dict__.get("_commitments", {}).get(next_hand)
    if upcoming is None:
        upcoming = HandSeed.objects.filter(table=table, hand_no=next_hand).values_list("commitment", flat=True).first()
    return {
        "id": str(table.pk),
        "game": table.game,
        "status": table.status,
        "version": version,
        "owner": table.owner.username,
        "config": table.config,
        "seats": seats(table),
        "your_seat": seat,
        "state": decider.view(state, seat) if started else None,
        "to_act": to_act,
        "deadline": table.deadline_at.isoformat() if table.deadline_at else None,
        "legal_actions": decider.legal_actions(state, seat)
        if started and seat is not None and table.status == Table.Status.RUNNING
        else [],
        "next_commitment": upcoming,
        "created_at": table.created_at.isoformat(),
    }


def events_view(table: Table, seat: int | None, *, after: int = 0, limit: int = 500) -> list[dict[str, Any]]:
    """The caller's view of the events after ``after``: each through the game's ``view_event``."""
    decider = registry.get(table.game)
    types = event_types_by_name(decider)
    return [
        _event_item(
            decider, seat, seq, type_name, hand_no, actor, created_at, decode_event(types, type_name, data, secret)
        )
        for seq, type_name, data, secret, actor, hand_no, created_at in store.events_after(
            table, after, limit=limit
        ).values_list("seq", "type", "data", "secret", "actor", "hand_no", "created_at")
    ]


def appended_events_view(table: Table, seat: int | None, rows, events) -> list[dict[str, Any]]:
    """``events_view`` of the events a command just appended: its stored ``rows`` with the game's
    ``events`` they were encoded from, without reading them back."""
    decider = registry.get(table.game)
    return [
        _event_item(decider, seat, row.seq, row.type, row.hand_no, row.actor, row.created_at, event)
        for row, event in zip(rows, events, strict=True)
    ]


def _event_item(decider, seat, seq, type_name, hand_no, actor, created_at, event) -> dict[str, Any]:
    return {
        "seq": seq,
        "type": type_name,
        "hand_no": hand_no,
        "actor": actor,
        "created_at": created_at.isoformat(),
        "data": decider.view_event(event, seat),
    }


def wait_for_events(table: Table, after: int, wait: float) -> Table:
    """Long-poll: return as soon as the table is past version ``after``, or after ``wait`` seconds."""
    deadline = time.monotonic() + min(max(wait, 0.0), settings.LONG_POLL_MAX_SECONDS)
    while table.version <= after and time.monotonic() < deadline:
        time.sleep(0.05)
        table.refresh_from_db(fields=["version", "status", "deadline_at"])
    return table
