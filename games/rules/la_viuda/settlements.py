"""The chips and money that move with La Viuda's events (LV-2, LV-6, LV-8, LV-11)."""

from __future__ import annotations

from typing import Any

from games.engine.decider import Movement
from games.rules.la_viuda.events import GameEnded, GameStarted, WidowBought, WorstHandPaid
from games.rules.la_viuda.state import State


def settlements(state: State, event: Any) -> list[Movement]:
    """The movements ``event`` implies, given the state just before it."""
    kind = type(event)
    money = state.chip_value > 0
    if kind is GameStarted:
        return _chips_bought(event, money)
    if kind is WorstHandPaid:
        return [Movement(("seat", event.seat), ("pot",), 1, "CHIP", "worst hand pays")]
    if kind is WidowBought:
        moves = [Movement(("pot",), ("seat", event.seat), 1, "CHIP", "La Viuda bought")]
        if money and event.price:
            moves.insert(0, Movement(("wallet", event.seat), ("escrow",), event.price, "MONEY", "La Viuda bought"))
        return moves
    if kind is GameEnded and money and event.prize:
        return [Movement(("escrow",), ("payout", event.winner), event.prize, "MONEY", "prize")]
    return []


def _chips_bought(event: GameStarted, money: bool) -> list[Movement]:
    """LV-2: each player buys their chips (paying for them when chips have money value), and La
    Viuda's chip goes into the pot."""
    moves = []
    for seat in event.players:
        if money:
            amount = event.chips_per_player * event.chip_value
            moves.append(Movement(("wallet", seat), ("escrow",), amount, "MONEY", "chips bought"))
        moves.append(Movement(("bank",), ("seat", seat), event.chips_per_player, "CHIP", "chips bought"))
    moves.append(Movement(("bank",), ("pot",), event.widow_chip, "CHIP", "La Viuda's chip"))
    return moves
