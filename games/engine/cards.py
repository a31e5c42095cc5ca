"""Card codes, parsing, decks and their canonical order (CM-1..CM-3, GC-1, WP-8).

A card is its code (``"As"``, ``"Th"``, ``"X1"``, and in the Spanish deck ``"1o"``, ``"12b"``):
readable in events and views, and cheap to hash and compare. Ranks and suits are indexed so
evaluators can work on small ints: in the English deck a card's index is its position in the
canonical 54-card order (``4 * rank_index + suit_index``, jokers 52 and 53).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ("X1", "X2")
RED_SUITS = frozenset("dh")

RANK_VALUE = {rank: index + 2 for index, rank in enumerate(RANKS)}  # 2..14, ace high

SPANISH_SUITS = "oceb"  # oros, copas, espadas, bastos (GC-1)
SPANISH_RANKS_48 = tuple(range(1, 13))
SPANISH_RANKS_40 = tuple(rank for rank in SPANISH_RANKS_48 if rank not in (8, 9))


class CardError(ValueError):
    """Text that is not a card or not a valid hand; the message names the bad token."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


def suit_of(card: str) -> str:
    """The suit character of a card (``"h"`` for ``"Th"``, ``"b"`` for ``"12b"``)."""
    return card[-1]


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
LA_VIUDA_DECK = deck(jokers=True)
EUCHRE_DECK = deck("9TJQKA")

# Index of every English card and joker in the canonical 54-card order, for numpy paths.
INDEX = {card: index for index, card in enumerate(LA_VIUDA_DECK)}
CARD_AT = LA_VIUDA_DECK


def reduced_pack_ranks(players: int) -> str:
    """The ranks of Whiskey Poker's reduced pack for ``players`` (WP-8): ten up for 2, one rank more each."""
    if not 2 <= players <= 7:
        raise ValueError(f"the reduced pack is for 2 to 7 players, not {players}")
    return RANKS[8 - (players - 2) :]


def reduced_pack(players: int) -> tuple[str, ...]:
    """Whiskey Poker's reduced pack (WP-8) in canonical order: 20 cards for 2 players, 40 for 7."""
    return deck(reduced_pack_ranks(players))


def spanish_deck(size: int = 40, jokers: bool = False) -> tuple[str, ...]:
    """The Spanish deck of GC-1 in canonical order: ranks 1..12 (no 8 or 9 in the 40), suits ``o c e b``."""
    if size not in (40, 48):
        raise ValueError(f"a Spanish deck has 40 or 48 cards, not {size}")
    ranks = SPANISH_RANKS_40 if size == 40 else SPANISH_RANKS_48
    cards = tuple(f"{rank}{suit}" for rank in ranks for suit in SPANISH_SUITS)
    return cards + JOKERS if jokers else cards


def spanish_rank(card: str) -> int:
    """The number of a Spanish card (``12`` for ``"12b"``); jokers rank 13, above the king (GC-1)."""
    return 13 if is_joker(card) else int(card[:-1])


DECKS = {
    "english_52": STANDARD_DECK,
    "english_53": (*STANDARD_DECK, JOKERS[0]),
    "english_54": LA_VIUDA_DECK,
    "euchre_24": EUCHRE_DECK,
    "spanish_40": spanish_deck(40),
    "spanish_48": spanish_deck(48),
    "spanish_40_jokers": spanish_deck(40, jokers=True),
    "spanish_48_jokers": spanish_deck(48, jokers=True),
    **{f"reduced_{players}": reduced_pack(players) for players in range(2, 8)},
}
"""Every deck by name, in canonical order; ``docs/verify_hand.py`` knows the same names."""


def named_deck(name: str) -> tuple[str, ...]:
    """A deck from :data:`DECKS` by name (``"english_52"``, ``"spanish_40"``, ``"reduced_3"``, ...)."""
    try:
        return DECKS[name]
    except KeyError:
        raise ValueError(f"unknown deck {name!r}; known: {', '.join(DECKS)}") from None


_ENGLISH_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs])", re.IGNORECASE)
_SPANISH_TOKEN = re.compile(r"(1[0-2]|[1-9])([oceb])", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]+")


def parse_card(token: str, *, spanish: bool = False) -> str:
    """The code of one card written as in CM-1 (or GC-1 with ``spanish``), or :class:`CardError`.

    Input is case-insensitive and ``10`` may stand for ``T`` (``"10h"`` is ``"Th"``); jokers are
    ``X1`` and ``X2``. Anything else is refused with a message naming the token.
    """
    if not isinstance(token, str):
        raise CardError(f"{token!r} is not a card: a card is written as text like 'As'", repr(token))
    text = token.strip()
    if not text:
        raise CardError("an empty string is not a card", token)
    if text.upper() in JOKERS:
        return text.upper()
    if spanish:
        match = _SPANISH_TOKEN.fullmatch(text)
        if match is None:
            raise CardError(
                f"'{token}' is not a Spanish card: write its number 1-12 then a suit o, c, e or b, like '1o' or '12b'",
                token,
            )
        return f"{int(match.group(1))}{match.group(2).lower()}"
    match = _ENGLISH_TOKEN.fullmatch(text)
    if match is None:
        raise CardError(f"'{token}' is not a card: {_english_complaint(text)}", token)
    rank = "T" if match.group(1) == "10" else match.group(1).upper()
    return rank + match.group(2).lower()


def _english_complaint(text: str) -> str:
    """Why ``text`` is not an English card, in words."""
    if len(text) < 2:
        return "a card is a rank then a suit, like 'As' or '10h'"
    rank, suit = text[:-1], text[-1]
    if rank.upper() not in RANK_VALUE and rank != "10":
        return f"'{rank}' is not a rank (use 2-9, T or 10, J, Q, K, A, then a suit c, d, h or s)"
    if suit.lower() not in SUITS:
        return f"'{suit}' is not a suit (use c, d, h or s after the rank)"
    return "write a rank then a suit, like 'As' or '10h'"


def parse_hand(
    text: str | Iterable[str], *, size: int | None = None, spanish: bool = False, deck: Iterable[str] | None = None
) -> tuple[str, ...]:
    """The codes of the cards in ``text`` ("As Kd 10h", or a list of tokens), refusing duplicates.

    With ``size`` the hand must hold exactly that many cards; with ``deck`` every card must be in it
    (a ``2c`` is refused for a Euchre deck). Errors are :class:`CardError` naming the bad token.
    """
    tokens = [token for token in _SEPARATORS.split(text.strip()) if token] if isinstance(text, str) else list(text)
    if not tokens:
        raise CardError("no cards given: a hand is written like 'As Kd Qh Jc 10s'", "")
    cards = tuple(parse_card(token, spanish=spanish) for token in tokens)
    seen: dict[str, str] = {}
    for token, card in zip(tokens, cards):
        if card in seen:
            raise CardError(f"'{token}' is {card} a second time: a hand holds each card once", token)
        seen[card] = token
    if deck is not None:
        allowed = frozenset(deck)
        for token, card in zip(tokens, cards):
            if card not in allowed:
                raise CardError(f"'{token}' is not in this deck", token)
    if size is not None and len(cards) != size:
        raise CardError(f"a hand here holds {size} cards, not {len(cards)}", None)
    return cards


def in_canonical_order(cards: Iterable[str], deck: Sequence[str] = LA_VIUDA_DECK) -> list[str]:
    """``cards`` sorted into ``deck``'s canonical order (CM-3, GC-1), as CM-18 needs before a reshuffle."""
    position = {card: index for index, card in enumerate(deck)}
    try:
        return sorted(cards, key=position.__getitem__)
    except KeyError as error:
        raise CardError(f"'{error.args[0]}' is not in this deck", error.args[0]) from None


def low_rank(card: str) -> int:
    """A card's rank with aces low, for the first-dealer draw (CM-19): ``A`` is 1, ``K`` 13, Spanish by number."""
    if card[0] == "A":
        return 1
    if card[0] in RANK_VALUE and len(card) == 2:
        return RANK_VALUE[card[0]]
    return int(card[:-1])
