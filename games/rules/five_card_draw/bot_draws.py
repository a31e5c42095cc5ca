"""Which cards the Five-Card Draw bot keeps in a draw (FD-7, FD-14, FD-15, FD-17).

The rules of thumb of draw poker, per variant, from the bot's own five cards alone:

- **High** (standard, wild cards counting): stand pat on a straight or better; keep trips, two
  pair and pairs (a pair made with a wild card keeps the wild and the card it pairs); with no pair,
  or a pair below jacks, draw to a four-flush (wild cards count towards it); with no pair, draw to
  an open-ended four-straight; else keep an ace, or ace-king, or at least the two highest cards.
- **Deuce-to-seven low** (triple draw, CM-16: aces high, straights and flushes count against):
  stand pat on a made 8-low or better (a 9-low at the last draw); else keep the lowest distinct
  cards up to 7 (an 8 only as the fourth card), never a pair.
- **High-low** (California, ace-to-five low, CM-17): stand pat on a made 8-low (ace low) or a
  straight or better; else keep, the first that applies: two pair or trips (for the high), four
  cards to a 7-low, a pair of jacks or better, four cards to an 8-low, a four-flush, three cards
  to a 6-low, a pair, the lowest cards.

A plan is the cards kept; when fewer than five minus the most a player may discard are worth
keeping, the best of the rest fill the hand (the highest for high, the lowest for low). With an
ace rule (FD-7) a lone ace worth keeping is shown and the other four cards drawn to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from games.engine import hands
from games.engine.cards import RANK_VALUE

HIGH, LOW27, HIGH_LOW = "high", "low27", "high_low"
"""The three ways a hand is played: high (standard, wild cards allowed), deuce-to-seven low
(triple draw) and California high-low."""

ACE = 14
JACK = 11
KING = 13


def rank(card: str) -> int:
    """A card's high rank, 2..14 (ace 14)."""
    return RANK_VALUE[card[0]]


def low_rank(card: str) -> int:
    """A card's ace-to-five rank, 1..13 (ace 1)."""
    value = RANK_VALUE[card[0]]
    return 1 if value == ACE else value


# --- high ----------------------------------------------------------------------------------------


def _four_flush(naturals: Sequence[str], wilds: Sequence[str]) -> list[str] | None:
    """Four cards to a flush (wild cards count towards any suit), or ``None``."""
    suits = Counter(card[1] for card in naturals)
    if not suits:
        return None
    suit, count = suits.most_common(1)[0]
    if count + len(wilds) < 4:
        return None
    suited = sorted((card for card in naturals if card[1] == suit), key=rank, reverse=True)
    return [*wilds, *suited][:4]


def _open_ended(naturals: Sequence[str], wilds: Sequence[str]) -> list[str] | None:
    """Four cards to an open-ended straight (four in a row that a card at either end completes,
    so not A-2-3-4 nor J-Q-K-A; with wild cards, any four that fit such a row), or ``None``."""
    by_rank: dict[int, str] = {}
    for card in sorted(naturals, key=rank):
        by_rank.setdefault(rank(card), card)
    need = 4 - len(wilds)
    if need <= 0:
        return None
    for low in range(10, 1, -1):  # rows low..low+3 with both ends open: 2-5 up to T-K
        row = [by_rank[r] for r in range(low, low + 4) if r in by_rank]
        if len(row) >= need:
            return [*wilds, *row[-need:]]
    return None


def keep_high(hand: Sequence[str], wild: Collection[str]) -> list[str]:
    """The cards worth keeping for a high hand (see the module docstring); may be fewer than the
    draw limit allows: the caller fills the hand with the highest cards."""
    value = hands.high_value(hand, frozenset(wild))
    category = value >> hands.CATEGORY_SHIFT
    if category >= hands.STRAIGHT:
        return list(hand)
    wilds = [card for card in hand if card in wild]
    naturals = [card for card in hand if card not in wild]
    counts = Counter(rank(card) for card in naturals)
    grouped = [card for card in naturals if counts[rank(card)] >= 2]
    high_pair = any(counts[r] >= 2 and r >= JACK for r in counts)
    if category <= hands.PAIR and not high_pair:
        # A four-flush beats a small pair (or a pair made by a wild card); an open-ended straight
        # draw is kept only with no pair at all.
        flush = _four_flush(naturals, wilds)
        if flush is not None:
            return flush
        if category == hands.HIGH_CARD:
            straight = _open_ended(naturals, wilds)
            if straight is not None:
                return straight
    if grouped:
        return [*wilds, *grouped]
    if wilds:
        best = max(naturals, key=rank, default=None)
        return [*wilds, *([best] if best is not None and len(wilds) < 4 else [])]
    ordered = sorted(naturals, key=rank, reverse=True)
    if rank(ordered[0]) == ACE:
        return ordered[:2] if rank(ordered[1]) == KING else ordered[:1]
    return []


# --- deuce-to-seven ----------------------------------------------------------------------------


def keep_low27(hand: Sequence[str], draws_left: int) -> list[str]:
    """The cards worth keeping for a deuce-to-seven low with ``draws_left`` draws to come, this one
    included: a made 8-low or better is kept whole (a 9-low at the last draw), else the lowest
    distinct cards to a 7, with an 8 only as the fourth card."""
    value = hands.low_27_value(hand)
    ranks = hands.low_ranks(value)
    made = hands.low_category(value) == "high_card"
    if made and ranks[0] <= (9 if draws_left <= 1 else 8):
        return list(hand)
    distinct: dict[int, str] = {}
    for card in sorted(hand, key=rank):
        distinct.setdefault(rank(card), card)
    low = [card for r, card in sorted(distinct.items()) if r <= 8][:4]
    if low and rank(low[-1]) == 8 and len(low) < 4:
        low = low[:-1]
    return low


# --- high-low ------------------------------------------------------------------------------------


def _low_cards(hand: Sequence[str], top: int) -> list[str]:
    """Distinct ace-to-five ranks up to ``top``, lowest first, one card each."""
    distinct: dict[int, str] = {}
    for card in sorted(hand, key=low_rank):
        distinct.setdefault(low_rank(card), card)
    return [card for r, card in sorted(distinct.items()) if r <= top]


def keep_high_low(hand: Sequence[str]) -> tuple[list[str], str]:
    """The cards worth keeping in California high-low, and which half they aim at (``"high"`` or
    ``"low"``, for the filling of the hand)."""
    low8 = _low_cards(hand, 8)
    if len(low8) == 5:
        return list(hand), "low"
    value = hands.high_value(hand)
    category = value >> hands.CATEGORY_SHIFT
    if category >= hands.STRAIGHT:
        return list(hand), "high"
    kept_high = keep_high(hand, ())
    if category >= hands.TWO_PAIR:
        return kept_high, "high"
    low7 = _low_cards(hand, 7)
    if len(low7) >= 4:
        return low7[:4], "low"
    if category == hands.PAIR and hands.ranks_of(value)[0] >= JACK:
        return kept_high, "high"
    if len(low8) >= 4:
        return low8[:4], "low"
    flush = _four_flush(hand, ())
    if flush is not None:
        return flush, "high"
    low6 = _low_cards(hand, 6)
    if len(low6) >= 3:
        return low6[:3], "low"
    if category == hands.PAIR:
        return kept_high, "high"
    return low8[:3], "low"


# --- the plan -------------------------------------------------------------------------------------


def plan(
    hand: Sequence[str],
    mode: str,
    wild: Collection[str],
    draws_left: int,
    options: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """The draw action for ``hand``: ``{"type": "draw", "discard": [...]}`` (with ``"show"`` when
    an ace is shown to draw four, FD-7), legal for the draw of ``legal_actions`` (``options``, its
    one draw action: the count range, and ``show_ace`` under an ace rule)."""
    draw: Mapping[str, Any] = options[0] if options else {"min": 0, "max": 3}
    ace: Mapping[str, Any] | None = draw.get("show_ace")
    most = int(ace["min"]) - 1 if ace else int(draw["max"])
    if mode == LOW27:
        kept, aim = keep_low27(hand, draws_left), "low"
    elif mode == HIGH_LOW:
        kept, aim = keep_high_low(hand)
    else:
        kept, aim = keep_high(hand, wild), "high"
    kept = [card for card in hand if card in kept]  # in the hand's order, each once
    if ace and len(kept) == 1 and kept[0][0] == "A" and kept[0] in ace["aces"]:
        return {"type": "draw", "discard": [card for card in hand if card != kept[0]], "show": kept[0]}
    spare = [card for card in hand if card not in kept]
    fill = 5 - most - len(kept)
    if fill > 0:
        key = low_rank if aim == "low" else rank
        best = sorted(spare, key=key, reverse=aim != "low")[:fill]
        kept += best
    return {"type": "draw", "discard": [card for card in hand if card not in kept]}


def final_value(hand: Sequence[str], mode: str, wild: Collection[str]) -> tuple[int, int]:
    """A hand's showdown values as ``(high, low)``, larger better; the half a mode does not play is 0."""
    if mode == LOW27:
        return 0, hands.low_27_value(hand)
    if mode == HIGH_LOW:
        return hands.high_value(hand), hands.low_a5_value(hand)
    return hands.high_value(hand, frozenset(wild)), 0
