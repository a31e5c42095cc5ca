"""La Viuda's state and ``evolve``: one small function per event, the shared events' handlers
registered from ``games.rules.widow.state``. A recorded event is a fact; nothing is re-checked."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import Any

from games.engine.presence import EVERYONE_HERE, Presence
from games.engine.replace import replacer
from games.rules.la_viuda.events import (
    GameEnded,
    GameStarted,
    ShowdownHeld,
    WidowBought,
    WidowDeclined,
    WidowOffered,
    WorstHandPaid,
)
from games.rules.widow import exchange
from games.rules.widow import state as shared
from games.rules.widow.events import HandStarted
from games.rules.widow.exchange import Exchange
from games.rules.widow.state import NO_SECRET, NOBODY, HandSecret, TableState


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The table's options the rules need, fixed when the table is created (``decide`` sees no config)."""

    seats: int
    chips_per_player: int
    chip_value: int
    flush_by_suit: bool
    max_orbits: int
    currency: str | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class State(TableState):
    """A La Viuda table. Options it needs are copied in, since ``decide`` sees no config. The
    current hand's seed and stock are secret (``view`` never shows them)."""

    rules: Rules
    started: bool = False
    chips: tuple[int, ...] = ()
    pot: int = 0
    out: tuple[bool, ...] = ()
    hand_no: int = 0
    dealer: int = NOBODY
    wild_rank: str = ""
    exchange: Exchange | None = None
    secret: HandSecret = NO_SECRET
    widow_bought_by: int = NOBODY
    offer: int = NOBODY
    finished: bool = False
    winner: int = NOBODY
    last_showdown: ShowdownHeld | None = None
    presence: Presence = EVERYONE_HERE

    @property
    def stock(self) -> tuple[str, ...]:
        """The hand secret ``stock``."""
        return self.secret.stock


_replace = replacer(State)


@functools.singledispatch
def evolve(event: Any, state: State) -> State:
    """The state after ``event``."""
    raise TypeError(f"Not a La Viuda event: {event!r}")


shared.register_shared(evolve, ShowdownHeld)


@evolve.register
def _(event: GameStarted, state: State) -> State:
    chips = tuple(event.chips_per_player if seat in event.players else 0 for seat in range(state.seats))
    out = tuple(seat not in event.players for seat in range(state.seats))
    return _replace(state, {"started": True, "chips": chips, "out": out, "pot": event.widow_chip})


@evolve.register
def _(event: HandStarted, state: State) -> State:
    return dataclasses.replace(
        state,
        hand_no=event.hand_no,
        dealer=event.dealer,
        wild_rank=event.wild_rank,
        exchange=exchange.start(event.order, event.hands, event.widow_cards),
        secret=HandSecret(event.server_seed, event.client_seed, event.stock),
        last_showdown=None,
    )


@evolve.register
def _(event: WorstHandPaid, state: State) -> State:
    chips = list(state.chips)
    chips[event.seat] -= 1
    return _replace(state, {"chips": tuple(chips), "pot": state.pot + 1})


@evolve.register
def _(event: WidowOffered, state: State) -> State:
    return _replace(state, {"offer": event.seat})


@evolve.register
def _(event: WidowBought, state: State) -> State:
    chips = list(state.chips)
    chips[event.seat] += 1
    changes = {"chips": tuple(chips), "pot": state.pot - 1, "widow_bought_by": event.seat, "offer": NOBODY}
    return _replace(state, changes)


@evolve.register
def _(event: WidowDeclined, state: State) -> State:
    return _replace(state, {"offer": NOBODY})


@evolve.register
def _(event: GameEnded, state: State) -> State:
    return _replace(state, {"finished": True, "winner": event.winner, "exchange": None})


def fold(state: State, events: Iterable[Any]) -> State:
    """The state after several events (``decide`` looks ahead with it)."""
    for event in events:
        state = evolve(event, state)
    return state
