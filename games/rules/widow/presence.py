"""CM-20 in both widow games: sitting out, sitting in and leaving, as far as La Viuda and Whiskey
Poker treat them alike (``games.engine.presence`` keeps who is away).

Any seated player may sit out, sit in or leave while the table runs, on their turn or not. A
player already out of the game (eliminated, or cashed out after leaving a ``pot`` table) has
nothing left to play, so sitting out or in is refused; they may still leave, which records that
they went and changes nothing else. What leaving means beyond the bot playing the seat is each
game's own: a match plays on with the bot, a ``pot`` hand passes the seat and cashes it out.
"""

from __future__ import annotations

from typing import Any

from games.engine import presence
from games.engine.errors import IllegalAction
from games.engine.words import T
from games.rules.widow.state import TableState


def is_seat(state: TableState, seat: Any) -> bool:
    """True for the number of a seat at the table (not a bool, which Python counts as an int)."""
    return not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state.seats


def legal(state: TableState, seat: Any) -> list[dict[str, Any]]:
    """The presence actions ``seat`` may send now (the caller checked the table runs): ``leave``
    only for a player out of the game, nothing once they left or for a seat not at the table."""
    if not is_seat(state, seat):
        return []
    if state.out[seat]:
        return [] if seat in state.presence.gone else [{"type": "leave"}]
    return presence.actions(state.presence, seat)


def refusal(state: TableState, seat: Any, kind: Any) -> IllegalAction | None:
    """Why ``seat`` may not ``sit_out``, ``sit_in`` or ``leave`` now (the caller checked the table
    runs), or ``None``: no such seat, its player left, or one out of the game sitting out or in."""
    if not is_seat(state, seat):
        return IllegalAction(T("There is no seat {seat} at this table.", seat=str(seat)), legal=[])
    if seat in state.presence.gone or kind == "leave":
        return presence.refusal(state.presence, seat, kind)
    if state.out[seat]:
        return IllegalAction(
            T("You are out of the game: there is nothing left to sit out or in."),
            code="out_of_game",
            legal=legal(state, seat),
        )
    # ``games.engine.presence`` words the rest of presence's refusals for every game.
    return presence.refusal(state.presence, seat, kind)


def events(state: TableState, seat: int, kind: Any) -> list[Any]:
    """The event of ``sit_out``, ``sit_in`` or ``leave`` from ``seat``, which ``refusal`` let through."""
    if kind == "leave":
        return [presence.leave(state.presence, seat)]
    return list(presence.decide(state.presence, {"type": kind, "seat": seat}))
