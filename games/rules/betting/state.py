"""A betting round's state (FD-4, FD-5, FD-20), pure and frozen.

A ``Round`` holds one entry per seat still in the hand, in turn order (the first to act first):
its stack, its bet this round, its total contribution this hand, and whether it folded, is all-in
or has acted since the last full raise. Per-seat tuples are indexed by position in ``seats``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from games.engine.replace import replace

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
STRUCTURES: tuple[Structure, ...] = ("no_limit", "pot_limit", "fixed_limit")
# Fixed limit (FD-4): one bet and at most three raises per round.
FIXED_LIMIT_CAP = 4
OVER = -1


@dataclasses.dataclass(frozen=True, slots=True)
class Round:
    """One betting round.

    ``bet_size`` is the smallest opening bet (no-limit and pot-limit) or the fixed bet of the round
    (fixed limit). ``current_bet`` is the largest bet this round, ``last_raise`` the size of the last
    full bet or raise (the minimum next raise), ``raises`` the full bets and raises made this round
    (the big blind counts as the bet). ``dead`` is the chips in the pot from seats no longer in the
    hand. ``to_act`` is the position of the seat to act, or ``OVER``.
    """

    structure: Structure
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    contributed: tuple[int, ...]
    folded: tuple[bool, ...]
    all_in: tuple[bool, ...]
    acted: tuple[bool, ...]
    bet_size: int
    current_bet: int
    last_raise: int
    raises: int
    dead: int
    to_act: int

    @property
    def over(self) -> bool:
        """Whether the round is over (nobody is left to act)."""
        return self.to_act == OVER

    @property
    def seat_to_act(self) -> int | None:
        """The seat number to act, or ``None`` when the round is over."""
        return None if self.over else self.seats[self.to_act]

    @property
    def pot(self) -> int:
        """Every chip put in this hand so far: contributions, this round's bets included, and dead."""
        return sum(self.contributed) + self.dead

    def position(self, seat: int) -> int:
        """The position of ``seat`` in this round's tuples."""
        return self.seats.index(seat)


def in_hand(state: Round) -> list[int]:
    """Positions of the seats that have not folded."""
    return [i for i, folded in enumerate(state.folded) if not folded]


def can_bet(state: Round, i: int) -> bool:
    """Whether the seat at position ``i`` can still bet: in the hand and not all-in (FD-20)."""
    return not state.folded[i] and not state.all_in[i]


def owes(state: Round, i: int) -> bool:
    """Whether the seat at position ``i`` still has to act: it can bet and either has not acted
    since the last full raise or has not matched the current bet."""
    return can_bet(state, i) and (not state.acted[i] or state.bets[i] < state.current_bet)


def round_is_over(state: Round) -> bool:
    """FD-20: over when at most one seat is in the hand, when fewer than two can still bet and none
    of them owes a call, or when everyone who can bet has acted and matched."""
    if len(in_hand(state)) <= 1:
        return True
    able = [i for i in range(len(state.seats)) if can_bet(state, i)]
    if len(able) <= 1 and all(state.bets[i] >= state.current_bet for i in able):
        return True
    return not any(owes(state, i) for i in able)


def next_to_act(state: Round, after: int) -> int:
    """The position of the next seat to act after position ``after`` (``-1`` for the first in turn
    order), or ``OVER`` when the round is over."""
    if round_is_over(state):
        return OVER
    count = len(state.seats)
    for step in range(1, count + 1):
        i = (after + step) % count
        if owes(state, i):
            return i
    return OVER


def start_round(
    structure: Structure,
    seats: Sequence[int],
    stacks: Mapping[int, int],
    *,
    bet_size: int,
    posted: Mapping[int, int] | None = None,
    contributed: Mapping[int, int] | None = None,
    dead: int = 0,
) -> Round:
    """Start a betting round.

    ``seats``: the seats still in the hand, in turn order from the first to act (FD-5).
    ``stacks``: each seat's chips behind, after the forced bets were posted. ``posted``: the live
    forced bets of this round (the blinds), which count as bets to call; the big blind is the
    opening bet (FD-6). ``contributed``: each seat's chips in the pot this hand, antes, earlier
    rounds and ``posted`` included (defaults to ``posted``). ``dead``: chips in the pot from seats
    no longer in the hand. A seat with no chips behind is all-in.
    """
    if structure not in STRUCTURES:
        raise ValueError(f"unknown betting structure {structure!r}")
    if bet_size <= 0:
        raise ValueError("the bet size must be a positive number of chips")
    order = tuple(seats)
    if len(set(order)) != len(order) or len(order) < 2:
        raise ValueError("a betting round needs at least two distinct seats")
    live = dict(posted or {})
    total = dict(contributed) if contributed is not None else dict(live)
    bets = _per_seat(order, live)
    current_bet = max(bets)
    state = Round(
        structure=structure,
        seats=order,
        stacks=_per_seat(order, stacks),
        bets=bets,
        contributed=_per_seat(order, total),
        folded=(False,) * len(order),
        all_in=tuple(stacks[seat] == 0 for seat in order),
        acted=(False,) * len(order),
        bet_size=bet_size,
        current_bet=current_bet,
        last_raise=bet_size,
        raises=1 if current_bet > 0 else 0,
        dead=dead,
        to_act=OVER,
    )
    if any(b > c for b, c in zip(state.bets, state.contributed, strict=True)):
        raise ValueError("a seat's contribution cannot be less than its bet this round")
    return replace(state, {"to_act": next_to_act(state, -1)})


def _per_seat(seats: Iterable[int], values: Mapping[int, int]) -> tuple[int, ...]:
    out = tuple(values.get(seat, 0) for seat in seats)
    if any(value < 0 for value in out):
        raise ValueError("chip amounts cannot be negative")
    return out
