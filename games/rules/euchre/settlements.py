"""Euchre's money (EU-21): a stake per player, no chips. Stakes go to escrow when the match starts;
the prize goes to the winners' pending payouts when it ends."""

from __future__ import annotations

from typing import Any

from games.engine.decider import Movement
from games.rules.euchre.events import MatchStarted, MatchWon
from games.rules.euchre.state import EuchreState


def settlements(state: EuchreState, event: Any) -> list[Movement]:
    """Each stake wallet -> escrow at ``MatchStarted``; at ``MatchWon`` the prize shared equally by
    the winners, the remainder to the lowest winning seat."""
    if state.stake <= 0:
        return []
    if isinstance(event, MatchStarted):
        return [Movement(("wallet", seat), ("escrow",), state.stake, "MONEY", "stake") for seat in range(state.seats)]
    if isinstance(event, MatchWon):
        winners = sorted(event.winners)
        share, remainder = divmod(state.stake * state.seats, len(winners))
        return [
            Movement(("escrow",), ("payout", seat), share + (remainder if i == 0 else 0), "MONEY", "prize")
            for i, seat in enumerate(winners)
        ]
    return []
