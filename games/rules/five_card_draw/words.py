"""Five-Card Draw's words for players: hand categories, hand descriptions and pots, as ``T``
messages (CM-11..CM-17, FD-11). Categories keep their machine code (``"full_house"``); these are
the words shown beside it.

``high_description`` says a high hand with the shared ``games.engine.hand_words.describe``, given
the hand's cards and the table's wild cards, so the description says what each wild card stands
for (CM-14, FD-15): the same words in the audit, the history, the table's view and the events."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import hand_words as poker_words
from games.engine import hands
from games.engine.words import T, Text
from games.rules.five_card_draw.cards import WILD_CARDS
from games.rules.five_card_draw.events import ShowdownHeld, ShownHand


def category_name(code: str) -> Text:
    """A category code in words: ``"full_house"`` is "full house" (CM-11, CM-16, CM-17)."""
    return poker_words.category_name(code)


def high_description(value: int, cards: Sequence[str], wild: str) -> Text:
    """A high hand in words (CM-11..CM-14); ``cards`` and ``wild`` (the table's FD-15 option) say
    which cards are wild and so what each stands for: "pair of aces: the joker stands for the ace
    of hearts"."""
    return poker_words.describe(value, cards, WILD_CARDS.get(wild, frozenset()))


def shown_wild(event: ShowdownHeld) -> str:
    """The wild cards (FD-15) a showdown was valued with: its record's, or in an older record that
    did not keep them, the jokers if a joker was shown (a joker is always wild, FD-15)."""
    if event.wild:
        return event.wild
    shown = {card for entry in event.hands for card in entry.cards}
    return "jokers" if shown & WILD_CARDS["jokers"] else "none"


_LOW_RANKS = {1: "A", 14: "A", 10: "10", 11: "J", 12: "Q", 13: "K"}


def low_description(value: int, *, ace_to_five: bool) -> Text:
    """A low hand in words (CM-16, CM-17): its ranks as they compare, and a category that counts
    against it: "7-5-4-3-2 low", "9-8-8-4-3 low (pair, which counts against it)"."""
    ranks = "-".join(_LOW_RANKS.get(rank, str(rank)) for rank in hands.low_ranks(value))
    code = hands.low_category(value)
    if code == "high_card":
        return T("{ranks} low", ranks=ranks)
    return T("{ranks} low ({category}, which counts against it)", ranks=ranks, category=category_name(code))


def pot_words(number: int) -> Text:
    """ "the main pot" for pot 0, "side pot 1" for pot 1 (FD-11)."""
    return T("the main pot") if number == 0 else T("side pot {number}", number=number)


def hand_words(entry: ShownHand, wild: str) -> Text:
    """A shown hand in words: high, low, or both halves in high-low (FD-14, FD-17)."""
    if entry.high is None:
        return low_description(entry.low or 0, ace_to_five=False)
    high = high_description(entry.high, entry.cards, wild)
    if entry.low is None:
        return high
    return T("high: {high}; low: {low}", high=high, low=low_description(entry.low, ace_to_five=True))
