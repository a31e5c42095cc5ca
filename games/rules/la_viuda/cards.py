"""La Viuda's pack and wild cards: 52 cards and two jokers (LV-1), the wild rank set by the pot (LV-5)."""

from __future__ import annotations

from games.engine import hands
from games.engine.cards import RANKS, deck

PACK = deck(jokers=True)
# CM-19's draw for the first dealer leaves the jokers out.
DRAW_PACK = deck()


def wild_rank(pot: int) -> str:
    """LV-5: the wild rank for a hand dealt with ``pot`` chips in the pot: ``pot mod 13`` of 1 is
    aces, 2 twos, ..., 12 queens, 0 kings."""
    rest = pot % 13
    if rest == 1:
        return "A"
    if rest == 0:
        return "K"
    return RANKS[rest - 2]


def wild_cards(rank: str) -> frozenset[str]:
    """Both jokers and the four cards of the wild rank (LV-5)."""
    return hands.wild_set(rank)
