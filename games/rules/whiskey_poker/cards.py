"""Whiskey Poker's pack: 52 cards, or the reduced pack for the number of players (WP-1, WP-8), and
no wild cards."""

from __future__ import annotations

from games.engine.cards import deck, reduced_pack, reduced_pack_ranks

NO_WILD: frozenset[str] = frozenset()


def pack_for(seats: int, reduced: bool) -> tuple[str, ...]:
    """The 52-card pack, or the reduced pack for ``seats`` players (WP-1, WP-8), canonical order."""
    return reduced_pack(seats) if reduced else deck()


def lowest_rank(seats: int, reduced: bool) -> str:
    """The pack's lowest rank, which plays low in a wheel straight (WP-8)."""
    return reduced_pack_ranks(seats)[0] if reduced else "2"
