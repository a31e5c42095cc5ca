"""The chips and money that move with Five-Card Draw's events (FD-12, FD-13). Every bet goes from
the seat to the pot and every pot won from the pot to the seat, so the ledger holds each seat's
stack and the pot after every event."""

from __future__ import annotations

from typing import Any

from games.engine.decider import Movement
from games.rules.five_card_draw.events import (
    ChipsToppedUp,
    ForcedBetsPosted,
    PlayerActed,
    PlayerLeft,
    PotsAwarded,
    TableEnded,
    TableStarted,
)
from games.rules.five_card_draw.state import TOURNAMENT, State


def settlements(state: State, event: Any) -> list[Movement]:
    """The movements ``event`` implies, given the state just before it."""
    kind = type(event)
    if kind is TableStarted:
        return _bought(event)
    if kind is ForcedBetsPosted:
        return [Movement(("seat", seat), ("pot",), chips, "CHIP", event.kind) for seat, chips in event.posts]
    if kind is PlayerActed:
        return [Movement(("seat", event.seat), ("pot",), event.chips, "CHIP", event.action)] if event.chips else []
    if kind is PotsAwarded:
        return [Movement(("pot",), ("seat", share.seat), share.chips, "CHIP", "pot won") for share in event.shares]
    if kind is ChipsToppedUp:
        return _topped_up(event)
    if kind is PlayerLeft:
        return _cashed_out(event.seat, event.chips, event.chip_value)
    if kind is TableEnded:
        return _ended(state, event)
    return []


def _bought(event: TableStarted) -> list[Movement]:
    """FD-13: cash chips bought at ``chip_value``; a tournament's stake for its starting stack."""
    moves = []
    for seat in event.players:
        price = event.stake if event.format == TOURNAMENT else event.stacks[seat] * event.chip_value
        moves.append(Movement(("wallet", seat), ("escrow",), price, "MONEY", "buy-in"))
        moves.append(Movement(("bank",), ("seat", seat), event.stacks[seat], "CHIP", "chips bought"))
    return moves


def _topped_up(event: ChipsToppedUp) -> list[Movement]:
    """FD-13: a top-up is paid as a buy-in is, money from the wallet to the table's escrow at
    ``chip_value`` and chips from the bank to the seat."""
    return [
        Movement(("wallet", event.seat), ("escrow",), event.chips * event.chip_value, "MONEY", "top-up"),
        Movement(("bank",), ("seat", event.seat), event.chips, "CHIP", "chips bought"),
    ]


def _cashed_out(seat: int, chips: int, chip_value: int) -> list[Movement]:
    return [
        Movement(("seat", seat), ("bank",), chips, "CHIP", "cashed out"),
        Movement(("escrow",), ("payout", seat), chips * chip_value, "MONEY", "cash-out"),
    ]


def _ended(state: State, event: TableEnded) -> list[Movement]:
    """Cash: every stack cashed out. Tournament: the chips go back and the winner takes the stakes."""
    if state.settings.format != TOURNAMENT:
        return [
            move for seat, chips in enumerate(event.cash_out) for move in _cashed_out(seat, chips, event.chip_value)
        ]
    moves = [
        Movement(("seat", seat), ("bank",), chips, "CHIP", "chips back") for seat, chips in enumerate(event.cash_out)
    ]
    share, odd = divmod(event.prize, len(event.winners))
    for k, seat in enumerate(event.winners):
        moves.append(Movement(("escrow",), ("payout", seat), share + (odd if k == 0 else 0), "MONEY", "prize"))
    return moves
