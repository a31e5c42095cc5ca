"""Whiskey Poker's state and ``evolve``: one small function per event, the shared events' handlers
registered from ``games.rules.widow.state``. A recorded event is a fact; nothing is re-checked."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any

from games.engine.between_hands import DealPostponed, IdleEnded
from games.engine.presence import EVERYONE_HERE, Presence
from games.engine.replace import replacer
from games.rules.whiskey_poker.events import (
    AntesPaid,
    GameEnded,
    GameStarted,
    LosersPaid,
    MatchEndRequested,
    PlayerCashedOut,
    PointsScored,
    PotAwarded,
    ShowdownHeld,
)
from games.rules.widow import exchange
from games.rules.widow import state as shared
from games.rules.widow.events import HandStarted
from games.rules.widow.exchange import Exchange
from games.rules.widow.state import NO_SECRET, NOBODY, HandSecret, TableState

# The three ways of scoring (WP-5..WP-8).
POT, LOSER_PAYS, POINTS = "pot", "loser_pays", "points"


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The table's options the rules need, fixed when the table is created (``decide`` sees no config)."""

    seats: int
    scoring: str
    chips_per_player: int
    lives: int
    target_points: int
    reduced_pack: bool
    chip_value: int
    flush_by_suit: bool
    max_orbits: int
    currency: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class State(TableState):
    """A Whiskey Poker table. Options it needs are copied in, since ``decide`` sees no config."""

    rules: Rules
    started: bool = False
    chips: tuple[int, ...] = ()
    pot: int = 0
    points: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    hand_no: int = 0
    dealer: int = NOBODY
    exchange: Exchange | None = None
    secret: HandSecret = NO_SECRET
    end_requested: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    last_showdown: ShowdownHeld | None = None
    presence: Presence = EVERYONE_HERE
    # A ``pot`` match waits, dealing no hand, while no person is dealt in (CM-21).
    waiting: bool = False

    @property
    def scoring(self) -> str:
        """The table option ``scoring``."""
        return self.rules.scoring

    @property
    def lives(self) -> int:
        """The table option ``lives``."""
        return self.rules.lives

    @property
    def target_points(self) -> int:
        """The table option ``target_points``."""
        return self.rules.target_points

    @property
    def reduced_pack(self) -> bool:
        """The table option ``reduced_pack``."""
        return self.rules.reduced_pack


_replace = replacer(State)


@functools.singledispatch
def evolve(event: Any, state: State) -> State:
    """The state after ``event``."""
    raise TypeError(f"Not a Whiskey Poker event: {event!r}")


shared.register_shared(evolve, ShowdownHeld)


@evolve.register
def _(event: GameStarted, state: State) -> State:
    chips = tuple(event.chips if seat in event.players else 0 for seat in range(state.seats))
    out = tuple(seat not in event.players for seat in range(state.seats))
    return _replace(state, {"started": True, "chips": chips, "out": out, "points": (0,) * state.seats})


def _each_paid_one(state: State, seats: tuple[int, ...], pot: int) -> State:
    chips = list(state.chips)
    for seat in seats:
        chips[seat] -= 1
    return _replace(state, {"chips": tuple(chips), "pot": pot})


@evolve.register
def _(event: AntesPaid, state: State) -> State:
    return _each_paid_one(state, event.seats, event.pot)


@evolve.register
def _(event: HandStarted, state: State) -> State:
    return dataclasses.replace(
        state,
        hand_no=event.hand_no,
        dealer=event.dealer,
        exchange=exchange.start(event.order, event.hands, event.widow_cards),
        secret=HandSecret(event.server_seed, event.client_seed),
        last_showdown=None,
        waiting=False,
    )


@evolve.register
def _(event: PotAwarded, state: State) -> State:
    chips = list(state.chips)
    for seat, amount in event.shares:
        chips[seat] += amount
    return _replace(state, {"chips": tuple(chips), "pot": state.pot - sum(amount for _, amount in event.shares)})


@evolve.register
def _(event: LosersPaid, state: State) -> State:
    return _each_paid_one(state, event.seats, event.pool)


@evolve.register
def _(event: PointsScored, state: State) -> State:
    return _replace(state, {"points": event.points})


@evolve.register
def _(event: PlayerCashedOut, state: State) -> State:
    chips = list(state.chips)
    chips[event.seat] -= event.chips
    out = list(state.out)
    out[event.seat] = True
    return _replace(state, {"chips": tuple(chips), "out": tuple(out)})


@evolve.register
def _(event: MatchEndRequested, state: State) -> State:
    return _replace(state, {"end_requested": True})


@evolve.register
def _(event: DealPostponed, state: State) -> State:
    return _replace(state, {"waiting": True})


@evolve.register
def _(event: IdleEnded, state: State) -> State:
    # As if the owner had ended the match (WP-6), which ends at once: no hand is in play.
    return _replace(state, {"end_requested": True})


@evolve.register
def _(event: GameEnded, state: State) -> State:
    chips = tuple(held - cashed for held, cashed in zip(state.chips, event.cash_out))
    return dataclasses.replace(
        state, finished=True, winners=event.winners, losers=event.losers, chips=chips, exchange=None, waiting=False
    )


def fold(state: State, events: Iterable[Any]) -> State:
    """The state after several events (``decide`` looks ahead with it)."""
    for event in events:
        state = evolve(event, state)
    return state
