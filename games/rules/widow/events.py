"""The events both widow games record around the exchange: the first dealer, the deal, the end of
a hand and an elimination, and the shown hand each game's showdown event lists. The exchange's
own events are in ``games.rules.widow.exchange``."""

from __future__ import annotations

import dataclasses

from games.engine import presence
from games.engine.codec import secret_field


@dataclasses.dataclass(frozen=True, slots=True)
class FirstDealerDrawn:
    """CM-19: one card to each seat from seat 0 on, again for the seats tied for lowest, until one
    is lowest; ``draws`` is every card taken, in order, as ``(seat, card)``. They come from their
    own shuffle (purpose ``first-dealer``), not the deck of the hand, so they are public."""

    draws: tuple[tuple[int, str], ...]
    dealer: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand was dealt (WX-1, WP-3, LV-4). Public: the commitments, the client seed, the dealer,
    the turn order (dealer last), the wild rank (La Viuda) and the pot. Secret: the server seed, the
    hands by seat, the face-down widow and the undealt stock."""

    hand_no: int
    dealer: int
    order: tuple[int, ...]
    commitment: str
    next_commitment: str | None
    client_seed: str
    pot: int
    wild_rank: str
    server_seed: str = secret_field()
    hands: tuple[tuple[str, ...], ...] = secret_field()
    widow_cards: tuple[str, ...] = secret_field()
    stock: tuple[str, ...] = secret_field()


@dataclasses.dataclass(frozen=True, slots=True)
class ShownHand:
    """One hand at the showdown: its cards, value (larger is better), category (a code such as
    ``"full_house"``) and how many wild cards it holds (LV-13). ``description`` is the English that
    records made before hands were described when shown still hold; new records leave it empty and
    nothing shows it any more: views, audits and histories describe the hand from its cards."""

    seat: int
    cards: tuple[str, ...]
    value: int
    category: str
    description: str
    wild_count: int


@dataclasses.dataclass(frozen=True, slots=True)
class HandEnded:
    """The hand is over; its server seed is revealed so anyone can check the deal (CM-10)."""

    hand_no: int
    server_seed: str


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """A player is out of the game (LV-8, LV-9, WP-6). ``reason`` is a code: ``broke``, ``cannot_ante``
    (``cannot ante`` in older records)."""

    seat: int
    reason: str


# With CM-20's sitting out, sitting in and leaving (``games.engine.presence``).
SHARED_EVENT_TYPES: tuple[type, ...] = (
    FirstDealerDrawn,
    HandStarted,
    HandEnded,
    PlayerEliminated,
    *presence.EVENT_TYPES,
)
