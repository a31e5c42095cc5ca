"""Counter's chips and money: chips from the bank and money to escrow at the start, chips through
the pot each hand, and at the end chips back to the bank, their worth and the stakes paid out."""

from __future__ import annotations

import functools
from typing import Any

from games.engine.decider import Movement
from tests.games.counter.events import Added, GameEnded, GameStarted, HandEnded
from tests.games.counter.state import CounterState


def settlements(state: CounterState, event: Any) -> list[Movement]:
    """The movements ``event`` implies, given the state just before it; nothing of amount 0."""
    return [movement for movement in _movements(event, state) if movement.amount]


@functools.singledispatch
def _movements(event: Any, state: CounterState) -> list[Movement]:
    return []


@_movements.register
def _(event: GameStarted, state: CounterState) -> list[Movement]:
    moves = []
    for seat in range(event.seats):
        moves.append(Movement(("bank",), ("seat", seat), event.start_chips, "CHIP", "buy-in"))
        moves.append(
            Movement(
                ("wallet", seat), ("escrow",), state.stake + event.start_chips * state.chip_value, "MONEY", "buy-in"
            )
        )
    return moves


@_movements.register
def _(event: Added, state: CounterState) -> list[Movement]:
    return [Movement(("seat", event.seat), ("pot",), event.amount, "CHIP", "add")]


@_movements.register
def _(event: HandEnded, state: CounterState) -> list[Movement]:
    return [Movement(("pot",), ("seat", event.winner), event.pot, "CHIP", f"hand {event.hand_no}")]


@_movements.register
def _(event: GameEnded, state: CounterState) -> list[Movement]:
    # Every seat is paid its chips' worth; the winners share the stakes, the remainder to the first.
    moves = [Movement(("seat", seat), ("bank",), chips, "CHIP", "cash-out") for seat, chips in enumerate(event.chips)]
    prize = state.stake * state.seats
    share, rest = divmod(prize, len(event.winners))
    for seat, chips in enumerate(event.chips):
        won = (share + (rest if seat == event.winners[0] else 0)) if seat in event.winners else 0
        moves.append(Movement(("escrow",), ("payout", seat), chips * state.chip_value + won, "MONEY", "payout"))
    return moves
