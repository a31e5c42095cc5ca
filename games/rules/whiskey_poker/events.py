"""Whiskey Poker's events besides the shared ones (``games.rules.widow.events`` and the exchange's)."""

from __future__ import annotations

import dataclasses

from games.engine import between_hands
from games.rules.widow import exchange
from games.rules.widow.events import SHARED_EVENT_TYPES, ShownHand


@dataclasses.dataclass(frozen=True, slots=True)
class GameStarted:
    """Each player got ``chips`` chips: bought at ``chip_value`` in ``pot`` scoring (WP-6), lives
    without money value in ``loser_pays`` (WP-7), none in ``points`` (WP-8)."""

    players: tuple[int, ...]
    scoring: str
    chips: int
    chip_value: int
    currency: str | None


@dataclasses.dataclass(frozen=True, slots=True)
class AntesPaid:
    """Before the deal every player put one chip in the pot (WP-5); ``pot`` after the antes."""

    seats: tuple[int, ...]
    pot: int


@dataclasses.dataclass(frozen=True, slots=True)
class ShowdownHeld:
    """Every hand shown with its value and category; ``best`` and ``worst`` list the tied seats in
    order from the dealer's left."""

    hands: tuple[ShownHand, ...]
    best: tuple[int, ...]
    worst: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PotAwarded:
    """The best hand took the pot, or the tied best hands split it (WP-5): ``(seat, chips)``."""

    shares: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class LosersPaid:
    """Every hand tied for worst paid one chip to the pool (WP-7); ``pool`` after paying."""

    seats: tuple[int, ...]
    pool: int


@dataclasses.dataclass(frozen=True, slots=True)
class PointsScored:
    """The best hand (every tied one) scored a point (WP-8); ``points`` of every seat after."""

    seats: tuple[int, ...]
    points: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerCashedOut:
    """A player who left a ``pot`` table during the hand had ``chips`` cashed out at
    ``chip_value`` when it ended, and takes no part in later hands (CM-20)."""

    seat: int
    chips: int
    chip_value: int


@dataclasses.dataclass(frozen=True, slots=True)
class MatchEndRequested:
    """The table's owner ended the match: it ends when this hand is over (WP-6)."""


@dataclasses.dataclass(frozen=True, slots=True)
class GameEnded:
    """The match is over. ``winners`` and ``losers`` as the scoring says (WP-6..WP-8);
    ``cash_out`` the chips each seat cashes at ``chip_value`` (``pot`` scoring)."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    cash_out: tuple[int, ...]
    chip_value: int


EVENT_TYPES: tuple[type, ...] = (
    GameStarted,
    AntesPaid,
    *SHARED_EVENT_TYPES,
    *exchange.EVENT_TYPES,
    ShowdownHeld,
    PotAwarded,
    LosersPaid,
    PointsScored,
    PlayerCashedOut,
    MatchEndRequested,
    GameEnded,
    # CM-21: the table waits for a person dealt in, and ends once it has waited too long.
    *between_hands.EVENT_TYPES,
)
