"""Side pots and their award (FD-9, FD-10, FD-11, FD-12).

``side_pots`` cuts the chips put in this hand at each contribution level of the seats still in the
hand: every seat's chips, folded ones included, fill each pot up to its level, and only the seats
still in that reached the level can win it. ``award`` settles each pot on its own: one eligible
seat takes it unshown (how an uncalled bet comes back), otherwise the best eligible hands split it,
odd chips one at a time from the dealer's left. No chip is made or lost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips and the seats that can win it."""

    amount: int
    eligible: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class Win:
    """``chips`` of pot number ``pot`` (0 is the main pot) going to ``seat``; ``shown`` is false for
    a pot taken without a showdown (FD-9)."""

    pot: int
    seat: int
    chips: int
    shown: bool


def side_pots(contributed: Mapping[int, int], still_in: Iterable[int]) -> tuple[Pot, ...]:
    """The main pot and side pots from each seat's total contribution this hand (FD-11).

    ``contributed`` covers every seat that put chips in, folded seats included; ``still_in`` the
    seats that have not folded. The pots add up to every chip contributed (FD-12); chips above the
    highest level of a seat still in (only a fold with nothing to call can leave any) go to the last
    pot.
    """
    live = sorted(set(still_in))
    if not live:
        raise ValueError("side pots need at least one seat still in the hand")
    levels = sorted({contributed.get(seat, 0) for seat in live} - {0})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        amount = sum(min(chips, level) - min(chips, below) for chips in contributed.values())
        eligible = tuple(seat for seat in live if contributed.get(seat, 0) >= level)
        pots.append(Pot(amount, eligible))
        below = level
    left = sum(contributed.values()) - sum(pot.amount for pot in pots)
    if left and pots:
        pots[-1] = Pot(pots[-1].amount + left, pots[-1].eligible)
    elif left:
        pots.append(Pot(left, tuple(live)))
    return tuple(pots)


def award(pots: Sequence[Pot], ranking: Mapping[int, Any], order: Sequence[int]) -> tuple[Win, ...]:
    """Settle each pot on its own (FD-9, FD-10, FD-11).

    ``ranking`` maps each seat at the showdown to a comparable hand value, higher wins (a lowball
    game passes a value that orders the lowest hand highest). ``order`` lists the seats from the
    dealer's left, for the odd chips. A pot with one eligible seat goes to it unshown.
    """
    wins: list[Win] = []
    for number, pot in enumerate(pots):
        if len(pot.eligible) == 1:
            wins.append(Win(number, pot.eligible[0], pot.amount, shown=False))
            continue
        wins.extend(_split(number, pot, ranking, order))
    return tuple(wins)


def _split(number: int, pot: Pot, ranking: Mapping[int, Any], order: Sequence[int]) -> list[Win]:
    missing = [seat for seat in pot.eligible if seat not in ranking]
    if missing:
        raise ValueError(f"no hand ranked for seats {missing} eligible for pot {number}")
    best = max(ranking[seat] for seat in pot.eligible)
    winners = [seat for seat in order if seat in pot.eligible and ranking[seat] == best]
    share, odd = divmod(pot.amount, len(winners))
    return [Win(number, seat, share + (1 if k < odd else 0), shown=True) for k, seat in enumerate(winners)]


def totals(wins: Iterable[Win]) -> dict[int, int]:
    """The chips each seat wins over all pots."""
    out: dict[int, int] = {}
    for win in wins:
        out[win.seat] = out.get(win.seat, 0) + win.chips
    return out
