"""What both widow games' states share: the hand's secrets, the table options forwarded to the
state's ``rules``, and the ``evolve`` handlers of the shared events, which each game registers in
its own ``evolve``."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, TypeVar

from games.engine import presence
from games.engine.presence import Presence
from games.engine.replace import replace
from games.rules.widow import exchange
from games.rules.widow.events import FirstDealerDrawn, HandEnded, PlayerEliminated
from games.rules.widow.exchange import Exchange

NOBODY = -1


@dataclasses.dataclass(frozen=True, slots=True)
class HandSecret:
    """What the state keeps of a hand's deal that nobody may see until the hand ends: the server
    seed (hex), the hand's client seed and the undealt stock (LV-7 draws from both)."""

    server_seed: str = ""
    client_seed: str = ""
    stock: tuple[str, ...] = ()


NO_SECRET = HandSecret()


class TableState:
    """The fields both widow games' states have, and their table options and hand secrets
    forwarded to the state's ``rules`` and ``secret``. No slots of its own, so a slotted frozen
    dataclass can inherit it; the annotations only tell the shared code what it may read."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Any]]
    rules: Any
    secret: HandSecret
    started: bool
    finished: bool
    chips: tuple[int, ...]
    pot: int
    out: tuple[bool, ...]
    hand_no: int
    dealer: int
    exchange: Exchange | None
    last_showdown: Any
    presence: Presence

    @property
    def seats(self) -> int:
        """The table option ``seats``."""
        return int(self.rules.seats)

    @property
    def chips_per_player(self) -> int:
        """The table option ``chips_per_player``."""
        return int(self.rules.chips_per_player)

    @property
    def chip_value(self) -> int:
        """The table option ``chip_value``."""
        return int(self.rules.chip_value)

    @property
    def flush_by_suit(self) -> bool:
        """The table option ``flush_by_suit``."""
        return bool(self.rules.flush_by_suit)

    @property
    def max_orbits(self) -> int:
        """The table option ``max_orbits``."""
        return int(self.rules.max_orbits)

    @property
    def currency(self) -> str | None:
        """The table option ``currency``."""
        currency: str | None = self.rules.currency
        return currency

    @property
    def server_seed(self) -> str:
        """The hand secret ``server_seed``."""
        return self.secret.server_seed

    @property
    def client_seed(self) -> str:
        """The hand secret ``client_seed``."""
        return self.secret.client_seed


S = TypeVar("S", bound=TableState)


def first_dealer_drawn(event: FirstDealerDrawn, state: S) -> S:
    """CM-19 named the first dealer."""
    return replace(state, {"dealer": event.dealer})


def exchange_moved(event: Any, state: S) -> S:
    """One of the exchange's events (WX-2..WX-7), folded into the hand's exchange."""
    assert state.exchange is not None, "an exchange event outside a hand"
    return replace(state, {"exchange": exchange.evolve(state.exchange, event)})


def showdown_held(event: Any, state: S) -> S:
    """The game's showdown event, kept for the view until the next deal."""
    return replace(state, {"last_showdown": event})


def hand_ended(event: HandEnded, state: S) -> S:
    """The hand is over: no exchange, and its secrets are forgotten (the event reveals the seed)."""
    return replace(state, {"exchange": None, "secret": NO_SECRET})


def player_eliminated(event: PlayerEliminated, state: S) -> S:
    """The seat is out of the game."""
    out = list(state.out)
    out[event.seat] = True
    return replace(state, {"out": tuple(out)})


def presence_changed(event: Any, state: S) -> S:
    """A player sat out, sat in or left (CM-20)."""
    return replace(state, {"presence": presence.evolve(state.presence, event)})


def showdown_due(state: TableState) -> bool:
    """True when the exchange is over: the turn came back to the first knocker (WX-6)."""
    return state.exchange is not None and state.exchange.turn == exchange.OVER


def exchange_turn(state: TableState) -> tuple[int, ...]:
    """The seat whose exchange move the hand waits for, if any."""
    if state.exchange is not None and state.exchange.turn != exchange.OVER:
        return (state.exchange.turn,)
    return ()


def chip_counts(state: TableState) -> dict[tuple[Any, ...], int]:
    """The chips each seat and the pot hold in ``state``: what the table's chip accounts in the
    ledger must hold too (``manage.py reconcile`` compares them)."""
    counts: dict[tuple[Any, ...], int] = {("seat", seat): chips for seat, chips in enumerate(state.chips)}
    counts[("pot",)] = state.pot
    return counts


def register_shared(evolve: Any, showdown_held_type: type) -> None:
    """Register the shared events' handlers in a game's singledispatch ``evolve``: the first
    dealer, every exchange move, the game's own showdown event, the end of a hand, an elimination,
    and a player sitting out, sitting in or leaving (CM-20)."""
    evolve.register(FirstDealerDrawn, first_dealer_drawn)
    evolve.register(showdown_held_type, showdown_held)
    evolve.register(HandEnded, hand_ended)
    evolve.register(PlayerEliminated, player_eliminated)
    for kind in exchange.EVENT_TYPES:
        evolve.register(kind, exchange_moved)
    for kind in presence.EVENT_TYPES:
        evolve.register(kind, presence_changed)
