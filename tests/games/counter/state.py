"""Counter's state and ``evolve``: one small function per event. A recorded event is a fact;
nothing is re-checked."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from tests.games.counter.events import Added, GameEnded, GameStarted, HandEnded, HandStarted


@dataclasses.dataclass(frozen=True, slots=True)
class CounterState:
    """A counter table. ``turn`` is ``None`` between hands; ``cards`` and ``server_seed`` are the
    hand's secrets, which only ``view`` turns into what a seat may see."""

    seats: int
    target: int
    hands: int
    start_chips: int
    chip_value: int = 0
    stake: int = 0
    chips: tuple[int, ...] = ()
    hand_no: int = 0
    total: int = 0
    pot: int = 0
    turn: int | None = None
    cards: tuple[str, ...] = ()  # secret: this hand's card of each seat
    server_seed: str = ""  # secret until the hand ends
    revealed: tuple[str, ...] = ()  # the cards of the last hand that ended
    finished: bool = False
    winners: tuple[int, ...] = ()


@functools.singledispatch
def evolve(event: Any, state: CounterState) -> CounterState:
    """The state after ``event``."""
    raise TypeError(f"Counter has no event {type(event).__name__}")


@evolve.register
def _(event: GameStarted, state: CounterState) -> CounterState:
    return dataclasses.replace(state, chips=(event.start_chips,) * event.seats)


@evolve.register
def _(event: HandStarted, state: CounterState) -> CounterState:
    return dataclasses.replace(
        state, hand_no=event.hand_no, total=0, pot=0, turn=event.first, cards=event.cards, server_seed=event.server_seed
    )


@evolve.register
def _(event: Added, state: CounterState) -> CounterState:
    chips = list(state.chips)
    chips[event.seat] -= event.amount
    return dataclasses.replace(
        state, chips=tuple(chips), total=event.total, pot=state.pot + event.amount, turn=(event.seat + 1) % state.seats
    )


@evolve.register
def _(event: HandEnded, state: CounterState) -> CounterState:
    chips = list(state.chips)
    chips[event.winner] += event.pot
    return dataclasses.replace(
        state, chips=tuple(chips), pot=0, turn=None, cards=(), server_seed="", revealed=event.cards
    )


@evolve.register
def _(event: GameEnded, state: CounterState) -> CounterState:
    return dataclasses.replace(state, chips=(0,) * state.seats, finished=True, winners=event.winners)
