"""The chips and money that move with Whiskey Poker's events (WP-5..WP-7)."""

from __future__ import annotations

from typing import Any

from games.engine.decider import Movement
from games.rules.whiskey_poker.events import (
    AntesPaid,
    GameEnded,
    GameStarted,
    LosersPaid,
    PlayerCashedOut,
    PotAwarded,
)
from games.rules.whiskey_poker.state import State


def settlements(state: State, event: Any) -> list[Movement]:
    """The movements ``event`` implies, given the state just before it."""
    kind = type(event)
    money = state.chip_value > 0
    if kind is GameStarted:
        return _chips_bought(event, money)
    if kind is AntesPaid:
        return [Movement(("seat", seat), ("pot",), 1, "CHIP", "ante") for seat in event.seats]
    if kind is PotAwarded:
        return [
            Movement(("pot",), ("seat", seat), amount, "CHIP", "pot won") for seat, amount in event.shares if amount
        ]
    if kind is LosersPaid:
        return [Movement(("seat", seat), ("pot",), 1, "CHIP", "worst hand pays") for seat in event.seats]
    if kind is PlayerCashedOut:
        return _seat_cashed_out(event.seat, event.chips, event.chip_value, money)
    if kind is GameEnded:
        return _cashed_out(event, money)
    return []


def _chips_bought(event: GameStarted, money: bool) -> list[Movement]:
    """WP-6, WP-7: each player gets their chips, paying for them when chips have money value."""
    moves = []
    for seat in event.players:
        if money:
            moves.append(
                Movement(("wallet", seat), ("escrow",), event.chips * event.chip_value, "MONEY", "chips bought")
            )
        if event.chips:
            moves.append(Movement(("bank",), ("seat", seat), event.chips, "CHIP", "chips bought"))
    return moves


def _cashed_out(event: GameEnded, money: bool) -> list[Movement]:
    """WP-6: each seat's chips go back to the bank, paid out at ``chip_value`` when they have money value."""
    return [
        move
        for seat, chips in enumerate(event.cash_out)
        for move in _seat_cashed_out(seat, chips, event.chip_value, money)
    ]


def _seat_cashed_out(seat: int, chips: int, chip_value: int, money: bool) -> list[Movement]:
    """One seat's chips back to the bank and their money to its payout, at the end of the match
    (WP-6) or of the hand its player left during (CM-20)."""
    if not chips:
        return []
    moves = [Movement(("seat", seat), ("bank",), chips, "CHIP", "cashed out")]
    if money:
        moves.append(Movement(("escrow",), ("payout", seat), chips * chip_value, "MONEY", "cash-out"))
    return moves
