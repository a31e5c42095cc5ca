"""Guerra Chevichona's money: a stake per player, not chips (the cards are what the players win
and lose). The stakes go to escrow at the start and the escrow to the winners at the end (GC-12)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.engine.decider import Movement
from games.rules.guerra.events import MatchEnded, MatchStarted
from games.rules.guerra.state import State


def settlements(state: State, event: Any) -> list[Movement]:
    """Stakes to escrow at the start; the escrow to the winner or winners at the end, split
    equally with the remainder to the lowest seat (GC-12). Cards are not chips."""
    if not state.match.stake:
        return []
    if isinstance(event, MatchStarted):
        return [
            Movement(("wallet", seat), ("escrow",), state.match.stake, "MONEY", "stake") for seat in range(state.seats)
        ]
    if isinstance(event, MatchEnded):
        return [
            Movement(("escrow",), ("payout", seat), amount, "MONEY", "prize")
            for seat, amount in split(state.match.stake * state.seats, event.winners)
        ]
    return []


def split(total: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """``total`` shared equally by ``winners``; the remainder goes to the lowest seat (GC-12)."""
    seats = sorted(winners)
    share, remainder = divmod(total, len(seats))
    return [(seat, share + (remainder if i == 0 else 0)) for i, seat in enumerate(seats)]
