"""Euchre's cards: the 24-card deck, the deal in packets, bowers and effective suits (EU-2, EU-3, EU-8).

``trump`` is a suit letter (``"c" "d" "h" "s"``) or ``None`` for a no-trump hand (EU-18), where
jacks are ordinary jacks.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.cards import deck
from games.engine.fairness import draw_for_dealer

DECK = deck("9TJQKA")
SUIT_ORDER = "cdhs"
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
SAME_COLOUR = {"c": "s", "s": "c", "d": "h", "h": "d"}
PLAIN_RANK = {"9": 9, "T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}
RIGHT_BOWER = 21
LEFT_BOWER = 20
PACKETS = {
    ("2-3", 4): ((2, 3, 2, 3), (3, 2, 3, 2)),
    ("3-2", 4): ((3, 2, 3, 2), (2, 3, 2, 3)),
    ("2-3", 3): ((2, 3, 2), (3, 2, 3)),
    ("3-2", 3): ((3, 2, 3), (2, 3, 2)),
}


def parse_card(value: object) -> str | None:
    """A card code from player input (CM-1: any case, ``10h`` for ``Th``), or ``None`` if it is not one."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) != 2:
        return None
    card = text[0].upper() + text[1].lower()
    return card if card in DECK else None


def left_bower(trump: str | None) -> str | None:
    """The jack of the other suit of trump's colour, or ``None`` with no trump (EU-8)."""
    return None if trump is None else "J" + SAME_COLOUR[trump]


def effective_suit(card: str, trump: str | None) -> str:
    """The suit a card belongs to for this hand: the left bower is a trump (EU-8, EU-10)."""
    if trump is not None and card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def rank_in_suit(card: str, trump: str | None) -> int:
    """The card's rank within its effective suit: bowers above the ace of trump (EU-8)."""
    if trump is not None and card[0] == "J":
        if card[1] == trump:
            return RIGHT_BOWER
        if card[1] == SAME_COLOUR[trump]:
            return LEFT_BOWER
    return PLAIN_RANK[card[0]]


def trick_power(card: str, trump: str | None, led: str) -> int:
    """How strongly ``card`` bids for a trick whose led suit is ``led``: trumps beat the suit led,
    which beats anything else (EU-11)."""
    suit = effective_suit(card, trump)
    if suit == trump:
        return 100 + rank_in_suit(card, trump)
    if suit == led:
        return rank_in_suit(card, trump)
    return 0


def trick_winner(plays: tuple[tuple[int, str], ...], trump: str | None) -> int:
    """The seat that wins a trick given as ``(seat, card)`` plays in order (EU-11)."""
    led = effective_suit(plays[0][1], trump)
    return max(plays, key=lambda play: trick_power(play[1], trump, led))[0]


def low_key(card: str, trump: str | None) -> tuple[int, int, int]:
    """Sort key for "lowest card" (EU-22): any non-trump below any trump, by EU-8 order, ties by
    the suit order clubs, diamonds, hearts, spades."""
    suit = effective_suit(card, trump)
    return (int(suit == trump), rank_in_suit(card, trump), SUIT_ORDER.index(card[1]))


def deal_hands(
    cards: tuple[str, ...], dealer: int, seats: int, pattern: str
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Five cards each from the top, clockwise from the dealer's left, in two rounds of packets;
    what is left is the kitty, its first card the one turned up (EU-3)."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    order = [(dealer + 1 + i) % seats for i in range(seats)]
    position = 0
    for packets in PACKETS[(pattern, seats)]:
        for seat, count in zip(order, packets):
            hands[seat].extend(cards[position : position + count])
            position += count
    return tuple(tuple(hand) for hand in hands), tuple(cards[position:])


def draw_first_dealer(cards: list[str], seats: int) -> tuple[int, tuple[tuple[int, str], ...]]:
    """The first dealer and the draws that chose them, from ``cards`` already shuffled (CM-19)."""
    drawn = draw_for_dealer(cards, range(seats))
    return drawn.dealer, drawn.draws


def only_nines_and_tens(hand: tuple[str, ...]) -> bool:
    """A farmer's hand: nothing but nines and tens (EU-16)."""
    return all(card[0] in "9T" for card in hand)


def ace_no_face(hand: tuple[str, ...]) -> bool:
    """Exactly one ace and otherwise only nines and tens (EU-17): two aces are no ace-no-face."""
    return sum(card[0] == "A" for card in hand) == 1 and all(card[0] in "9TA" for card in hand)


def cards_text(cards: Sequence[str]) -> str:
    """Cards as the audit's sentences show them, ``nothing`` for none."""
    return " ".join(cards) or "nothing"
