"""Who sent an event, as a client is told it. Events record their actor as ``user:<pk>``,
``bot:<seat>`` or ``system`` (and hash that text); a client sees the person's username instead of
a database id, with a machine-readable kind and the seat:

``{"actor": "alice", "actor_kind": "user", "actor_seat": 0}``, ``{"actor": null, "actor_kind":
"bot", "actor_seat": 2}``, ``{"actor": null, "actor_kind": "system", "actor_seat": null}``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model

from games.models import Seat, Table

USER, BOT, SYSTEM = "user", "bot", "system"


def describe(table: Table, actors: Iterable[str], seats: Iterable[Seat] | None = None) -> dict[str, dict[str, Any]]:
    """Each recorded actor text among ``actors`` → its ``actor``, ``actor_kind`` and ``actor_seat``.
    ``seats`` are the table's seats with their users if the caller has read them already."""
    actors = set(actors)
    rows = list(seats) if seats is not None else list(Seat.objects.filter(table=table).select_related("user"))
    seat_of_user = {row.user_id: row.number for row in rows if row.user_id is not None}
    names = {row.user_id: row.user.get_username() for row in rows if row.user_id is not None and row.user}
    wanted = {_user_pk(actor) for actor in actors} - {None} - set(names)
    if wanted:
        # Someone no longer seated (a seat freed before the start) or the owner, not seated.
        names.update(get_user_model().objects.filter(pk__in=wanted).values_list("pk", "username"))
    return {actor: _one(actor, names, seat_of_user) for actor in actors}


def _user_pk(actor: str) -> int | None:
    kind, _, rest = actor.partition(":")
    return int(rest) if kind == USER and rest.isdigit() else None


def _one(actor: str, names: dict[Any, str], seat_of_user: dict[Any, int]) -> dict[str, Any]:
    kind, _, rest = actor.partition(":")
    if kind == USER and rest.isdigit():
        pk = int(rest)
        return {"actor": names.get(pk), "actor_kind": USER, "actor_seat": seat_of_user.get(pk)}
    if kind == BOT and rest.isdigit():
        return {"actor": None, "actor_kind": BOT, "actor_seat": int(rest)}
    return {"actor": None, "actor_kind": SYSTEM, "actor_seat": None}
