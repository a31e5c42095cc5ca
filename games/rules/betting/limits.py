"""The legal actions of the seat to act, with exact amounts, for each structure (FD-4).

Bet and raise amounts are "to" amounts: the seat's whole bet this round once the action is made.
``no_limit``: a bet is at least the bet size, a raise at least the previous bet or raise in the
round, and at most the stack. ``pot_limit``: at most the pot after calling, but never less than the
smallest full bet or raise (a pot smaller than the minimum bet still allows it). ``fixed_limit``: exactly
the round's bet size, one bet and at most three raises. A call for more than the stack is a call
all-in for less. An all-in for less than a full raise does not reopen the betting to the seats that
already acted: they may only call or fold, unless short all-ins add up to a full raise.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from games.rules.betting.state import FIXED_LIMIT_CAP, Round, can_bet


@dataclasses.dataclass(frozen=True, slots=True)
class Range:
    """The smallest and the largest legal "to" amount of a bet or a raise."""

    minimum: int
    maximum: int


@dataclasses.dataclass(frozen=True, slots=True)
class Legal:
    """What the seat to act may do. ``call`` is the chips a call puts in (capped by the stack; equal
    to the stack for a call all-in), ``None`` when there is nothing to call. ``bet`` and ``raise_``
    are the full bet or raise ranges; ``all_in`` is the seat's total bet after going all-in, ``None``
    when all-in is not legal (more than the structure allows, or a raise the seat may not make)."""

    seat: int
    fold: bool
    check: bool
    call: int | None
    bet: Range | None
    raise_: Range | None
    all_in: int | None

    def as_dicts(self) -> list[dict[str, Any]]:
        """The legal actions as plain dicts, for a refusal's ``legal`` list."""
        out: list[dict[str, Any]] = []
        if self.fold:
            out.append({"type": "fold"})
        if self.check:
            out.append({"type": "check"})
        if self.call is not None:
            out.append({"type": "call", "amount": self.call})
        for kind, span in (("bet", self.bet), ("raise", self.raise_)):
            if span is not None:
                out.append({"type": kind, "min": span.minimum, "max": span.maximum})
        if self.all_in is not None:
            out.append({"type": "all_in", "amount": self.all_in})
        return out


NOTHING = Legal(seat=-1, fold=False, check=False, call=None, bet=None, raise_=None, all_in=None)


def may_raise(state: Round, i: int) -> bool:
    """Whether the seat at position ``i`` may bet or raise at all: it has not acted since the last
    full raise, or faces at least a full raise since it acted (an all-in for less does not reopen
    the betting; short all-ins adding up to a full raise do), another seat in the hand has
    chips to go past the current bet (a raise nobody can call is none) and, in fixed limit, the
    round has not reached one bet and three raises."""
    if state.acted[i] and state.current_bet - state.bets[i] < state.last_raise:
        return False
    if not any(_can_go_past(state, j) for j in range(len(state.seats)) if j != i):
        return False
    return not (state.structure == "fixed_limit" and state.raises >= FIXED_LIMIT_CAP)


def _can_go_past(state: Round, j: int) -> bool:
    return can_bet(state, j) and state.bets[j] + state.stacks[j] > state.current_bet


def structure_cap(state: Round, i: int) -> int:
    """The largest "to" amount the structure allows the seat at position ``i``, its stack aside.
    Pot limit allows the pot after calling, and at least the smallest full bet or raise: the
    minimum bet (FD-2) stays open when the pot is smaller than it."""
    if state.structure == "no_limit":
        return state.bets[i] + state.stacks[i]
    if state.structure == "pot_limit":
        to_call = state.current_bet - state.bets[i]
        return max(state.current_bet + state.pot + to_call, smallest_full(state))
    return state.current_bet + state.bet_size


def smallest_full(state: Round) -> int:
    """The smallest "to" amount of a full bet or raise."""
    if state.current_bet == 0:
        return state.bet_size
    if state.structure == "fixed_limit":
        return state.current_bet + state.bet_size
    return state.current_bet + state.last_raise


def legal_actions(state: Round) -> Legal:
    """The legal actions of the seat to act with exact amounts (FD-4); ``NOTHING`` when over."""
    if state.over:
        return NOTHING
    i = state.to_act
    stack, bet = state.stacks[i], state.bets[i]
    to_call = state.current_bet - bet
    everything = bet + stack
    raising = may_raise(state, i) and everything > state.current_bet
    cap = min(structure_cap(state, i), everything)
    full = smallest_full(state)
    span = Range(full, cap) if raising and cap >= full else None
    all_in_ok = everything <= state.current_bet or (raising and everything <= structure_cap(state, i))
    return Legal(
        seat=state.seats[i],
        fold=True,
        check=to_call == 0,
        call=min(to_call, stack) if to_call > 0 else None,
        bet=span if state.current_bet == 0 else None,
        raise_=span if state.current_bet > 0 else None,
        all_in=everything if all_in_ok and stack > 0 else None,
    )
