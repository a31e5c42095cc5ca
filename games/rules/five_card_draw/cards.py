"""Five-Card Draw's deck, wild cards and hand values by variant (FD-1, FD-6, FD-14, FD-15, FD-17,
CM-11..CM-17). A hand's value is an int, larger better, whatever the variant: the lowball values
of ``games.engine.hands`` already order the lowest hand highest."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import cards, hands

# FD-15: the wild cards of each ``wild`` option; jokers are added to the deck only when wild.
WILD_CARDS: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "joker": frozenset({"X1"}),
    "jokers": frozenset(cards.JOKERS),
    "deuces": frozenset("2" + suit for suit in cards.SUITS),
    "one_eyed_jacks": frozenset({"Js", "Jh"}),
}
WILD_CHOICES = tuple(WILD_CARDS)
_DECK_NAMES = {"joker": "english_53", "jokers": "english_54"}

# FD-6: openers are a pair of jacks or better; the lowest such hand is a bare pair of jacks.
OPENERS = hands.make_value("pair", ["J"])


def deck_name(wild: str) -> str:
    """The name in ``cards.DECKS`` of the deck a table with this ``wild`` option shuffles (FD-1, FD-15)."""
    return _DECK_NAMES.get(wild, "english_52")


def pack(wild: str) -> tuple[str, ...]:
    """The deck in canonical order (CM-3): 52 cards, plus one or two jokers when they are wild."""
    return cards.named_deck(deck_name(wild))


def wild_cards(wild: str) -> frozenset[str]:
    """The cards that are wild under the ``wild`` option (FD-15)."""
    return WILD_CARDS[wild]


def has_openers(hand: Sequence[str], wild: str) -> bool:
    """FD-6: a pair of jacks or better, wild cards counting."""
    return hands.high_value(hand, WILD_CARDS[wild]) >= OPENERS


def high_value(hand: Sequence[str], wild: str) -> int:
    """The high value (CM-11..CM-14, wild cards by FD-15)."""
    return hands.high_value(hand, WILD_CARDS[wild])


def low_value(hand: Sequence[str], *, ace_to_five: bool) -> int:
    """A low value, larger is lower: ace-to-five (CM-17, California's low half) or deuce-to-seven
    (CM-16, triple draw)."""
    return hands.low_a5_value(hand) if ace_to_five else hands.low_27_value(hand)


def high_category(hand: Sequence[str], wild: str) -> str:
    """The high hand's category code (``"full_house"``); its words are made when shown (``words``)."""
    return hands.category(high_value(hand, wild))


def low_category(hand: Sequence[str], *, ace_to_five: bool) -> str:
    """A low hand's category: the poker category that counts against it, ``"high_card"`` when none."""
    return hands.low_category(low_value(hand, ace_to_five=ace_to_five))
