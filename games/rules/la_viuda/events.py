"""La Viuda's events besides the shared ones (``games.rules.widow.events`` and the exchange's)."""

from __future__ import annotations

import dataclasses

from games.rules.la_viuda.tiebreak import TieBreakStep
from games.rules.widow import exchange
from games.rules.widow.events import SHARED_EVENT_TYPES, ShownHand


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    """Each player bought ``chips_per_player`` chips at ``chip_value`` (minor units), and La Viuda's
    chip went into the pot (LV-2)."""

    players: tuple[int, ...]
    chips_per_player: int
    chip_value: int
    currency: str | None
    widow_chip: int = 1


@dataclasses.dataclass(frozen=True, slots=True)
class ShowdownHeld:
    """Every hand shown with its value, category and wild count; ``tied`` the hands tied for worst
    by value, ``steps`` LV-7's tie-break steps among them, ``loser`` the worst hand (LV-6, LV-7, LV-13)."""

    wild_rank: str
    hands: tuple[ShownHand, ...]
    tied: tuple[int, ...]
    steps: tuple[TieBreakStep, ...]
    loser: int


@dataclasses.dataclass(frozen=True, slots=True)
class WorstHandPaid:
    """The worst hand paid one chip into the pot (LV-6); ``chips_left`` and ``pot`` after paying."""

    seat: int
    chips_left: int
    pot: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowOffered:
    """The player who paid their last chip may buy La Viuda for ``price`` (LV-8..LV-10)."""

    seat: int
    price: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowBought:
    """The player bought La Viuda: its chip came out of the pot to them; ``price`` went to the prize (LV-8)."""

    seat: int
    price: int


@dataclasses.dataclass(frozen=True, slots=True)
class WidowDeclined:
    """The offer of La Viuda was declined: ``declined``, ``expired`` (LV-10), ``cannot_afford`` (LV-8)
    or ``away`` (the player sat out or left, CM-20: the bot never buys it with their money)."""

    seat: int
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """One player still has chips and wins every chip bought, plus La Viuda's price if bought (LV-11)."""

    winner: int
    prize: int


EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    *SHARED_EVENT_TYPES,
    *exchange.EVENT_TYPES,
    ShowdownHeld,
    WorstHandPaid,
    WidowOffered,
    WidowBought,
    WidowDeclined,
    GameEnded,
)
