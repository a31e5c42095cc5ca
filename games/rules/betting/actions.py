"""Apply one betting action to a round (FD-4, FD-20).

``act(state, action)`` returns the new round; ``Round.over`` tells whether the round ended
(everyone who can still bet has acted and matched, or fewer than two can still bet). An illegal
action raises ``BettingRefused`` with a sentence for the player and the legal actions; ``refusal``
returns that sentence without raising (``None`` when ``act`` accepts), for a game's one judge.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, TypeVar

from games.engine.errors import IllegalAction
from games.engine.replace import replace
from games.engine.words import N, T, Text
from games.rules.betting.limits import Legal, legal_actions, smallest_full
from games.rules.betting.state import Round, next_to_act

Kind = Literal["fold", "check", "call", "bet", "raise", "all_in"]
KINDS: tuple[Kind, ...] = ("fold", "check", "call", "bet", "raise", "all_in")
V = TypeVar("V")


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """A betting action. ``amount`` is only for ``bet`` and ``raise``: the seat's whole bet this
    round once the action is made (a "raise to")."""

    kind: Kind
    amount: int = 0


class BettingRefused(IllegalAction):
    """An illegal betting action: a player-readable message and the legal actions."""

    def __init__(self, message: str, legal: Legal):
        super().__init__(message, legal=legal.as_dicts())
        self.allowed = legal


def act(state: Round, action: Action) -> Round:
    """The round after the seat to act makes ``action``; raises ``BettingRefused`` if illegal
    (the sentence of ``refusal``)."""
    legal = legal_actions(state)
    refused = _refusal(state, legal, action)
    if refused is not None:
        raise BettingRefused(refused, legal)
    target = _target(state, legal, action)
    if target is None:
        return _after(state, folded=True)
    return _put_in(state, target)


def refusal(state: Round, action: Action) -> Text | None:
    """The sentence refusing ``action`` of the seat to act (what ``act`` raises), or ``None`` when
    ``act`` accepts it: the round's judge of a betting action (FD-4)."""
    return _refusal(state, legal_actions(state), action)


def apply_recorded(state: Round, kind: str, to: int) -> Round:
    """The round after the seat to act made a recorded action: ``kind`` (a fold, or anything that
    brought its bet this round to ``to`` chips). For replay, which folds in actions ``act`` already
    accepted and so does not check them again."""
    if kind == "fold":
        return _after(state, folded=True)
    return _put_in(state, to)


def _refusal(state: Round, legal: Legal, action: Action) -> Text | None:
    """The sentence refusing ``action``, given the round's ``legal`` actions, or ``None``."""
    if state.over:
        return T("The betting round is over.")
    kind = action.kind
    if kind == "fold" or (kind == "check" and legal.check):
        return None
    if (kind == "call" and legal.call is not None) or (kind == "all_in" and legal.all_in is not None):
        return None
    if kind in ("bet", "raise"):
        span = legal.bet if kind == "bet" else legal.raise_
        if span is not None and span.minimum <= action.amount <= span.maximum:
            return None
        if span is not None:
            if kind == "bet":
                return T("You may bet from {minimum} to {maximum} chips.", minimum=span.minimum, maximum=span.maximum)
            return T(
                "You may raise to anything from {minimum} to {maximum} chips.",
                minimum=span.minimum,
                maximum=span.maximum,
            )
    return _why(kind, legal)


def _target(state: Round, legal: Legal, action: Action) -> int | None:
    """The seat's bet this round after ``action``, which ``_refusal`` let through (``None`` for
    a fold)."""
    bet = state.bets[state.to_act]
    kind = action.kind
    if kind == "fold":
        return None
    if kind == "check":
        return bet
    if kind == "call":
        assert legal.call is not None
        return bet + legal.call
    if kind == "all_in":
        assert legal.all_in is not None
        return legal.all_in
    return action.amount


def _why(kind: str, legal: Legal) -> Text:
    if kind not in KINDS:
        return T("{kind} is not a betting action.", kind=repr(kind))
    if kind == "check":
        return N(
            "You cannot check: there is {count} chip to call.",
            "You cannot check: there are {count} chips to call.",
            legal.call or 0,
        )
    if kind == "call":
        return T("There is nothing to call: you may check.")
    if kind == "bet" and legal.raise_ is not None:
        return T("There is already a bet: you may raise.")
    if kind == "raise" and legal.bet is not None:
        return T("There is no bet to raise: you may bet.")
    if kind == "all_in":
        return T("You may not go all-in here: it would be more than you may bet or raise.")
    return T("You may not bet now.") if kind == "bet" else T("You may not raise now.")


def _put_in(state: Round, target: int) -> Round:
    """The seat to act brings its bet this round to ``target`` chips."""
    i = state.to_act
    chips = target - state.bets[i]
    stack = state.stacks[i] - chips
    changes: dict[str, Any] = {
        "stacks": _set(state.stacks, i, stack),
        "bets": _set(state.bets, i, target),
        "contributed": _set(state.contributed, i, state.contributed[i] + chips),
        "all_in": _set(state.all_in, i, stack == 0),
        "acted": _set(state.acted, i, True),
    }
    if target > state.current_bet:
        changes["current_bet"] = target
        if target >= smallest_full(state):
            # A full bet or raise reopens the betting: everyone else must act again (FD-4).
            changes["acted"] = tuple(j == i for j in range(len(state.seats)))
            changes["last_raise"] = max(target - state.current_bet, state.bet_size)
            changes["raises"] = state.raises + 1
    return _after(replace(state, changes))


def _after(state: Round, *, folded: bool = False) -> Round:
    i = state.to_act
    if folded:
        state = replace(state, {"folded": _set(state.folded, i, True), "acted": _set(state.acted, i, True)})
    return replace(state, {"to_act": next_to_act(state, i)})


def _set(values: tuple[V, ...], i: int, value: V) -> tuple[V, ...]:
    return (*values[:i], value, *values[i + 1 :])
