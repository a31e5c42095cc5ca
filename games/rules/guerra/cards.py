"""Guerra Chevichona's cards (GC-1): the three decks, card values, the canonical order a later
shuffle starts from (CM-18) and the deal (GC-2)."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import JOKERS, RANK_VALUE, spanish_deck, spanish_rank
from games.engine.cards import deck as english_deck

JOKER_VALUE = 99  # above every rank of every deck; X1 and X2 equal each other

DECKS = ("english", "spanish_40", "spanish_48")


def match_deck(name: str, jokers: bool) -> tuple[str, ...]:
    """The canonical order of a match's deck (GC-1, CM-3)."""
    if name == "english":
        return english_deck(jokers=jokers)
    if name == "spanish_40":
        return spanish_deck(40, jokers)
    if name == "spanish_48":
        return spanish_deck(48, jokers)
    raise ValueError(f"unknown deck {name!r}")


# Spanish and English codes overlap ("2c" is a two in both decks), and their values agree.
VALUE: dict[str, int] = {card: RANK_VALUE[card[0]] for card in english_deck()}
VALUE.update({card: spanish_rank(card) for card in spanish_deck(48)})
VALUE.update(dict.fromkeys(JOKERS, JOKER_VALUE))
# GC-15: with ``ace_high`` the Spanish 1 (as) ranks above the 12, still below the jokers.
ACE_HIGH_VALUE: dict[str, int] = {
    **VALUE,
    **{card: 13 for card in spanish_deck(48) if card.startswith("1") and len(card) == 2},
}


def values(ace_high: bool) -> dict[str, int]:
    """Every card's value for a match: GC-1's order, or with ``ace_high`` the 1 above the 12 (GC-15)."""
    return ACE_HIGH_VALUE if ace_high else VALUE


# Canonical positions for CM-18, per deck family (the 40-card deck keeps the 48-card deck's order).
_CANONICAL = {
    "english": {card: i for i, card in enumerate(english_deck(jokers=True))},
    "spanish": {card: i for i, card in enumerate(spanish_deck(48, jokers=True))},
}


def canonical(cards: Sequence[str], deck_name: str) -> list[str]:
    """``cards`` in their deck's canonical order, as a later shuffle starts from (CM-18)."""
    index = _CANONICAL["english" if deck_name == "english" else "spanish"]
    return sorted(cards, key=index.__getitem__)


def deal(cards: Sequence[str], seats: int) -> tuple[tuple[str, ...], ...]:
    """Deal ``cards`` one at a time from seat 0 (GC-2); each pile is top first, in dealt order."""
    return tuple(tuple(cards[seat::seats]) for seat in range(seats))
