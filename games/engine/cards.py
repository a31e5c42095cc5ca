"""Card codes, decks and their canonical order (CM-1..CM-3).

A card is its two-character code (``"As"``, ``"Th"``, ``"X1"``): readable in events and views, and
cheap to hash and compare. Ranks and suits are indexed so evaluators can work on small ints.
"""

from __future__ import annotations

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ("X1", "X2")
RED_SUITS = frozenset("dh")

RANK_VALUE = {rank: index + 2 for index, rank in enumerate(RANKS)}  # 2..14, ace high


def rank_of(card: str) -> str:
    """The rank character of an English card (``"T"`` for ``"Th"``)."""
    return card[0]


def suit_of(card: str) -> str:
    """The suit character of an English card (``"h"`` for ``"Th"``)."""
    return card[1]


def is_joker(card: str) -> bool:
    """True for ``X1`` and ``X2``."""
    return card in JOKERS


def colour(card: str) -> str | None:
    """``"red"`` for diamonds and hearts, ``"black"`` for clubs and spades, ``None`` for jokers (CM-2)."""
    if is_joker(card):
        return None
    return "red" if card[1] in RED_SUITS else "black"


def deck(ranks: str = RANKS, jokers: bool = False) -> tuple[str, ...]:
    """A deck in canonical order (CM-3): rank-major, ranks ascending, suits ``c d h s``, then jokers.

    ``ranks`` leaves ranks out for reduced decks: ``deck("9TJQKA")`` is Euchre's 24 cards.
    """
    cards = tuple(rank + suit for rank in RANKS if rank in ranks for suit in SUITS)
    return cards + JOKERS if jokers else cards


STANDARD_DECK = deck()
