"""CM-20 in both widow games: sitting out, sitting in and leaving, as far as La Viuda and Whiskey
Poker treat them alike (``games.engine.presence`` keeps who is away).

Any seated player may sit out, sit in or leave while the table runs, on their turn or not. A
player already out of the game (eliminated, or cashed out after leaving a ``pot`` table) has
nothing left to play, so sitting out or in is refused; they may still leave, which records that
they went and changes nothing else. What leaving means beyond the bot playing the seat is each
game's own: a match plays on with the bot, a ``pot`` hand passes the seat and cashes it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.widow.state import TableState


def legal(state: TableState, seat: int) -> list[dict[str, Any]]:
    """The presence actions ``seat`` may send now (the caller checked the table runs): ``leave``
    only for a player out of the game, nothing once they left or for a seat not at the table."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        return []
    if state.out[seat]:
        return [] if seat in state.presence.gone else [{"type": "leave"}]
    return presence.actions(state.presence, seat)


def decide(state: TableState, command: Mapping[str, Any]) -> list[Any]:
    """The event of ``sit_out``, ``sit_in`` or ``leave`` from a seated player (the caller checked
    the table runs), or ``IllegalAction`` saying why not."""
    seat = command.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalAction(T("There is no seat {seat} at this table.", seat=str(seat)), legal=[])
    if command.get("type") == "leave":
        return [presence.leave(state.presence, seat)]
    if state.out[seat] and seat not in state.presence.gone:
        raise IllegalAction(
            T("You are out of the game: there is nothing left to sit out or in."),
            code="out_of_game",
            legal=legal(state, seat),
        )
    return list(presence.decide(state.presence, {**command, "seat": seat}))
