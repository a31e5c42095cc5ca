"""Leaving and coming back (CM-20): which seats the table's bot plays for the player seated there.

A player who *sits out* has the bot play their seat from the seat's own view until they *sit in*;
a player who *leaves* cannot sit in again. Every game keeps a :class:`Presence` in its state, folds
the three events below with :func:`evolve`, lists :func:`actions` among a seat's legal actions and
decides ``sit_out`` and ``sit_in`` with :func:`decide`. What leaving means beyond that is the
game's own: in a hand that stands alone the seat is folded or passed and cashed out when the hand
ends; in a match the bot plays on and the result stays the player's. The service asks
``played_by_bot`` which seats to play (a field of ``games.engine.decider.Game``, these by default).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Literal, TypedDict

from games.engine.errors import IllegalAction
from games.engine.words import T, Text

COMMANDS = frozenset({"sit_out", "sit_in", "leave"})


@dataclasses.dataclass(frozen=True, slots=True)
class SatOut:
    """The player at ``seat`` sat out: the bot plays the seat from now on."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class SatIn:
    """The player at ``seat`` sat in again and plays their own turns."""

    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class LeftTable:
    """The player at ``seat`` left; the seat never comes back to them."""

    seat: int


EVENT_TYPES: tuple[type, ...] = (SatOut, SatIn, LeftTable)


class SitOut(TypedDict):
    """The legal action of sitting out (``games.engine.contract`` makes it a schema)."""

    type: Literal["sit_out"]


class SitIn(TypedDict):
    """The legal action of sitting in again."""

    type: Literal["sit_in"]


class Leave(TypedDict):
    """The legal action of leaving the table."""

    type: Literal["leave"]


# Every game's ``action_types`` ends with these.
ACTIONS: tuple[type, ...] = (SitOut, SitIn, Leave)


@dataclasses.dataclass(frozen=True, slots=True)
class Presence:
    """``away``: the seats the bot plays (sat out or left); ``gone``: the seats whose player left."""

    away: frozenset[int] = frozenset()
    gone: frozenset[int] = frozenset()


EVERYONE_HERE = Presence()


def evolve(presence: Presence, event: SatOut | SatIn | LeftTable) -> Presence:
    """The presence after one of this module's events."""
    if isinstance(event, SatOut):
        return dataclasses.replace(presence, away=presence.away | {event.seat})
    if isinstance(event, SatIn):
        return dataclasses.replace(presence, away=presence.away - {event.seat})
    return Presence(away=presence.away | {event.seat}, gone=presence.gone | {event.seat})


def is_presence_action(action: Mapping[str, Any]) -> bool:
    """True for ``sit_out``, ``sit_in`` and ``leave``: what a bot never chooses for a player."""
    return action.get("type") in COMMANDS


def actions(presence: Presence, seat: int, *, may_leave: bool = True) -> list[dict[str, Any]]:
    """What ``seat`` may send about its own presence now: ``sit_out`` or ``sit_in``, and ``leave``
    when ``may_leave`` (the game says when leaving is allowed). Nothing once the player has left."""
    if seat in presence.gone:
        return []
    listed: list[dict[str, Any]] = [{"type": "sit_in"} if seat in presence.away else {"type": "sit_out"}]
    if may_leave:
        listed.append({"type": "leave"})
    return listed


def refusal(presence: Presence, seat: int, kind: Any) -> IllegalAction | None:
    """Why ``seat`` may not send ``kind`` (``sit_out``, ``sit_in`` or ``leave``) now, or ``None``:
    the one judge of presence every game asks (nothing once the player left; no sitting out twice,
    nor in without having sat out)."""
    if seat in presence.gone:
        return IllegalAction(T("You have left this table."), code="seat_left")
    if kind == "sit_out" and seat in presence.away:
        return IllegalAction(T("You are already sitting out."), code="already_sitting_out")
    if kind == "sit_in" and seat not in presence.away:
        return IllegalAction(T("You are not sitting out."), code="not_sitting_out")
    return None


def decide(presence: Presence, command: Mapping[str, Any]) -> list[SatOut | SatIn]:
    """The event of a ``sit_out`` or ``sit_in`` command, or ``IllegalAction`` saying why not."""
    seat = int(command["seat"])
    refused = refusal(presence, seat, command["type"])
    if refused is not None:
        raise refused
    return [SatOut(seat)] if command["type"] == "sit_out" else [SatIn(seat)]


def leave(presence: Presence, seat: int) -> LeftTable:
    """The event of ``seat`` leaving, or ``IllegalAction`` if its player already left."""
    refused = refusal(presence, seat, "leave")
    if refused is not None:
        raise refused
    return LeftTable(seat)


def history_line(event: Any, names: Sequence[str]) -> Text | None:
    """The hand history's line for a presence event, naming the seat's player (``names``), or
    ``None`` for any other event (a game's history hook asks this first)."""
    if isinstance(event, SatOut):
        return T("{player} sits out; the table's bot plays for them", player=names[event.seat])
    if isinstance(event, SatIn):
        return T("{player} sits in again", player=names[event.seat])
    if isinstance(event, LeftTable):
        return T("{player} leaves the table", player=names[event.seat])
    return None
