"""Poker hand values, exact per CM-11..CM-17, with wild cards (CM-14) and fast.

A hand's value is an int: larger is better and equal values tie. Its layout, in hex digits from the
top, is category, an extra digit (the suit rank of a flush under LV-12, else 0), then up to five
ranks (2..14, ace 14; the wheel's top is 5) in the order CM-13 compares them.

Speed comes from tables built once at import. A hand is split into its natural cards and its
number of wilds ``w``; the natural ranks, as a multiset, are summed into a key (each rank is a
power of 5, so the sum is the multiset: a rank occurs at most 4 times), and ``w`` is added on top.
Two tables map that key to the value: one for hands whose natural cards share one suit, one for the
rest. The tables are filled by solving each (natural ranks, w, suited) analytically: the best
category the wilds can reach, then its best ranks. ``tests/engine`` checks them against a brute
force over every substitution of the wilds.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

from games.engine.cards import INDEX, JOKERS, RANK_VALUE, RANKS, STANDARD_DECK, SUITS

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH = 0, 1, 2, 3, 4, 5
FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_OF_A_KIND = 6, 7, 8, 9, 10

CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
    "five_of_a_kind",
)
"""Category names, worst first; ``CATEGORIES[value >> 24]`` is a value's category."""

CATEGORY_SHIFT = 24
EXTRA_SHIFT = 20
ACE = 14
_W_UNIT = 5**13  # one wild in a key; natural rank keys sum to less than this
_LOW_UNIT = 5**6  # a key's base-5 digits of twos..sevens sit below this, eights..aces and wilds above
_HIGH_LIMIT = 6 * 5**7  # every key // _LOW_UNIT is below this (up to 5 wilds)
_HIGH_SHIFT = 14  # bulk keys hold the low digits in 14 bits and the high ones above
_SUIT_SHIFT = 33  # bulk keys hold a 3-bit count per suit above the rank digits
_BAD_CARD = 1 << 50  # a bulk key this large came from a card that cannot be valued (a joker not wild)
_NO_WILD: frozenset[str] = frozenset()
_LOW_BASE = 1 << 28  # above every high value, so low values stay positive

_FAST_KEY = {card: 5 ** RANKS.index(card[0]) for card in STANDARD_DECK}
_FAST_SUIT = {card: 1 << SUITS.index(card[1]) for card in STANDARD_DECK}


def _encode(category: int, ranks: Sequence[int], extra: int = 0) -> int:
    """Pack a category and its ranks (compared in order) into a value."""
    value = category << CATEGORY_SHIFT | extra << EXTRA_SHIFT
    for position, rank in enumerate(ranks):
        value |= rank << (16 - 4 * position)
    return value


def straight_tops(lowest_rank: int | str = 2) -> frozenset[int]:
    """The top ranks of the straights a pack allows (CM-12, WP-8).

    A full pack (lowest rank 2) has tops 5 (the wheel ``A-2-3-4-5``) to 14. A reduced pack from
    ``lowest_rank`` up has only the straights lying inside it and no wheel: from tens, only
    ``T-J-Q-K-A``.
    """
    low = RANK_VALUE[lowest_rank.upper()] if isinstance(lowest_rank, str) else int(lowest_rank)
    if low == 2:
        return frozenset(range(5, 15))
    return frozenset(range(max(low + 4, 6), 15))


STANDARD_TOPS = straight_tops(2)
NO_WHEEL_TOPS = frozenset(range(6, 15))  # deuce-to-seven low (CM-16): the ace is always high


def _window(top: int) -> frozenset[int]:
    """The five ranks of the straight with this top (the wheel's ace counts as 14)."""
    return frozenset(ACE if rank == 1 else rank for rank in range(top - 4, top + 1))


_WINDOWS = {top: _window(top) for top in range(5, 15)}


def _best_value(naturals: tuple[int, ...], wilds: int, suited: bool, tops: frozenset[int]) -> int:
    """The best value of natural ranks (highest first) plus ``wilds`` wild cards (CM-11..CM-14).

    ``suited`` means the natural cards share one suit. Each category is tried best first; a wild
    may copy a card already in the hand (CM-14), so the flush's wilds are all aces of its suit.
    """
    counts = Counter(naturals)
    by_count = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    distinct = len(counts) == len(naturals)
    top_rank = by_count[0] if by_count else ACE
    if counts[top_rank] + wilds == 5 and len(counts) <= 1:
        return _encode(FIVE_OF_A_KIND, [top_rank])
    straight_top = 0
    if distinct:
        ranks = frozenset(naturals)
        straight_top = max((top for top in tops if ranks <= _WINDOWS[top]), default=0)
    if suited and straight_top:
        return _encode(ROYAL_FLUSH, [ACE]) if straight_top == ACE else _encode(STRAIGHT_FLUSH, [straight_top])
    quads = [rank for rank in counts if counts[rank] + wilds >= 4]
    if quads or wilds >= 4:
        quad = max(quads, default=ACE)
        spare = wilds - (4 - counts[quad])
        kickers = [rank for rank in naturals if rank != quad] + [ACE] * spare
        return _encode(FOUR_OF_A_KIND, [quad, max(kickers)])
    shape = sorted(counts.values(), reverse=True)
    if (wilds == 0 and shape == [3, 2]) or (wilds == 1 and shape == [2, 2]):
        high, low = sorted(counts, reverse=True) if wilds else by_count
        return _encode(FULL_HOUSE, [high, low])
    if suited:
        return _encode(FLUSH, sorted([*naturals, *[ACE] * wilds], reverse=True))
    if straight_top:
        return _encode(STRAIGHT, [straight_top])
    trips = [rank for rank in counts if counts[rank] + wilds >= 3]
    if trips:
        trip = max(trips)
        return _encode(THREE_OF_A_KIND, [trip, *sorted((r for r in naturals if r != trip), reverse=True)])
    if wilds == 0 and shape == [2, 2, 1]:
        return _encode(TWO_PAIR, by_count)
    pairs = [rank for rank in counts if counts[rank] + wilds >= 2]
    if pairs:
        pair = max(pairs)
        return _encode(PAIR, [pair, *sorted((r for r in naturals if r != pair), reverse=True)])
    return _encode(HIGH_CARD, sorted(naturals, reverse=True))


class _Tables:
    """Values of every (natural rank multiset, number of wilds), split by whether the naturals share a suit."""

    __slots__ = ("_arrays", "plain", "suited", "tops")

    def __init__(self, tops: frozenset[int]):
        self.tops = tops
        self.plain: dict[int, int] = {}
        self.suited: dict[int, int] = {}
        self._arrays: tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]] | None = None
        rank_values = range(2, 15)
        for size in range(6):
            wilds = 5 - size
            for combo in itertools.combinations_with_replacement(rank_values, size):
                if size == 5 and combo[0] == combo[4]:
                    continue  # five natural cards of one rank do not exist
                naturals = tuple(sorted(combo, reverse=True))
                key = sum(5 ** (rank - 2) for rank in naturals) + wilds * _W_UNIT
                if size >= 2:
                    self.plain[key] = _best_value(naturals, wilds, False, tops)
                if len(set(naturals)) == size:
                    self.suited[key] = _best_value(naturals, wilds, True, tops)

    def arrays(self) -> tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.int64]]:
        """Direct-index tables for the numpy path: see :func:`high_values`."""
        if self._arrays is None:
            import numpy as np

            low_ids = np.full(_LOW_UNIT, -1, dtype=np.int32)
            high_ids = np.full(_HIGH_LIMIT, -1, dtype=np.int32)
            keys = set(self.plain) | set(self.suited)
            lows = sorted({key % _LOW_UNIT for key in keys})
            highs = sorted({key // _LOW_UNIT for key in keys})
            low_ids[lows] = np.arange(len(lows))
            high_ids[highs] = np.arange(len(highs))
            values = np.zeros((2, len(lows), len(highs)), dtype=np.int64)
            for suited, table in ((0, self.plain), (1, self.suited)):
                for key, value in table.items():
                    values[suited, low_ids[key % _LOW_UNIT], high_ids[key // _LOW_UNIT]] = value
            self._arrays = (low_ids, high_ids, values)
        return self._arrays


@functools.lru_cache(maxsize=16)
def _tables(tops: frozenset[int]) -> _Tables:
    return _Tables(tops)


_STANDARD = _tables(STANDARD_TOPS)
_PLAIN = _STANDARD.plain
_SUITED = _STANDARD.suited


@functools.lru_cache(maxsize=64)
def _wild_maps(wild: frozenset[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Key and suit-bit of every card for a wild set: a wild adds one wild unit and matches every suit."""
    keys = dict(_FAST_KEY)
    suits = dict(_FAST_SUIT)
    for card in wild:
        keys[card] = _W_UNIT
        suits[card] = 15
    return keys, suits


def high_value(
    cards: Sequence[str],
    wild: Collection[str] = _NO_WILD,
    *,
    flush_by_suit: bool = False,
    lowest_rank: int | str = 2,
) -> int:
    """The value of a 5-card high hand (CM-11..CM-14): larger is better, equal values tie.

    ``cards`` are canonical codes (``cards.parse_hand`` makes them from input), all different.
    ``wild`` is the set of codes that are wild in this deal (jokers, a wild rank's four cards);
    a wild stands for any card, even one already in the hand. ``flush_by_suit`` ranks flushes by
    suit first (LV-12). ``lowest_rank`` is the pack's lowest rank: a reduced pack (WP-8) has only
    the straights inside it and no wheel.
    """
    if flush_by_suit or lowest_rank != 2:
        return _general_value(cards, wild, flush_by_suit, lowest_rank)
    try:
        if not wild:
            a, b, c, d, e = cards
            key = _FAST_KEY[a] + _FAST_KEY[b] + _FAST_KEY[c] + _FAST_KEY[d] + _FAST_KEY[e]
            if a[1] == b[1] == c[1] == d[1] == e[1]:
                return _SUITED[key]
            return _PLAIN[key]
        keys, suits = _wild_maps(wild if isinstance(wild, frozenset) else frozenset(wild))
        a, b, c, d, e = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
        if suits[a] & suits[b] & suits[c] & suits[d] & suits[e]:
            return _SUITED[key]
        return _PLAIN[key]
    except (KeyError, ValueError, TypeError):
        raise _hand_error(cards, wild) from None


def _general_value(cards: Sequence[str], wild: Collection[str], flush_by_suit: bool, lowest_rank: int | str) -> int:
    """:func:`high_value` with a variant's options (slower, same tables)."""
    wild = wild if isinstance(wild, frozenset) else frozenset(wild)
    tables = _tables(straight_tops(lowest_rank))
    keys, suits = _wild_maps(wild)
    try:
        a, b, c, d, e = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
        suit_bits = suits[a] & suits[b] & suits[c] & suits[d] & suits[e]
        value = tables.suited[key] if suit_bits else tables.plain[key]
    except (KeyError, ValueError, TypeError):
        raise _hand_error(cards, wild) from None
    if flush_by_suit and value >> CATEGORY_SHIFT == FLUSH:
        value |= (suit_bits.bit_length()) << EXTRA_SHIFT  # clubs 1 .. spades 4 (LV-12)
    return value


def _hand_error(cards: Any, wild: Collection[str]) -> ValueError:
    """The reason ``cards`` cannot be valued, as an error naming the card at fault."""
    try:
        hand = list(cards)
    except TypeError:
        return ValueError(f"a hand is a sequence of 5 card codes, not {cards!r}")
    if len(hand) != 5:
        return ValueError(f"a poker hand has 5 cards, not {len(hand)}")
    for card in hand:
        if card in JOKERS and card not in wild:
            return ValueError(f"{card} is a joker but jokers are not wild here")
        if card not in INDEX:
            return ValueError(f"{card!r} is not a card code (parse input with cards.parse_hand)")
    for card, times in Counter(hand).items():
        if times > 1:
            return ValueError(f"{card} is in the hand {times} times")
    return ValueError(f"cannot value the hand {hand}")


def category(value: int) -> str:
    """The category name of a value: ``"five_of_a_kind"``, ``"royal_flush"``, ... ``"high_card"`` (CM-11)."""
    return CATEGORIES[value >> CATEGORY_SHIFT]


def make_value(category_name: str, ranks: Sequence[int | str] = ()) -> int:
    """The value of a category with its compared ranks, the lowest such hand when ranks are left out.

    For thresholds: jacks or better is ``high_value(hand, wild) >= make_value("pair", ["J"])``.
    """
    numbers = [RANK_VALUE[rank.upper()] if isinstance(rank, str) else int(rank) for rank in ranks]
    return _encode(CATEGORIES.index(category_name), numbers)


def ranks_of(value: int) -> tuple[int, ...]:
    """The ranks a value compares, in order (2..14; empty places left out)."""
    digits = [(value >> (16 - 4 * position)) & 15 for position in range(5)]
    return tuple(digit for digit in digits if digit)


def low_27_value(cards: Sequence[str]) -> int:
    """Deuce-to-seven low (CM-16): larger is better, that is a lower poker hand; the best is 7-5-4-3-2.

    Aces are always high (``A-2-3-4-5`` is no straight) and straights and flushes count against.
    """
    tables = _tables(NO_WHEEL_TOPS)
    keys, suits = _FAST_KEY, _FAST_SUIT
    try:
        a, b, c, d, e = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
        value = tables.suited[key] if suits[a] & suits[b] & suits[c] & suits[d] & suits[e] else tables.plain[key]
    except (KeyError, ValueError, TypeError):
        raise _hand_error(cards, _NO_WILD) from None
    return _LOW_BASE - value


def low_a5_value(cards: Sequence[str]) -> int:
    """Ace-to-five low (CM-17): larger is better; the best is 5-4-3-2-A.

    Aces are low, straights and flushes do not count, pairs count against; hands of the same shape
    compare their paired ranks, then the rest, from the highest card down.
    """
    hand = list(cards)
    if len(hand) != 5 or any(card not in _FAST_KEY for card in hand) or len(set(hand)) != 5:
        raise _hand_error(cards, _NO_WILD)
    counts = Counter(1 if card[0] == "A" else RANK_VALUE[card[0]] for card in hand)
    order = sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = tuple(sorted(counts.values(), reverse=True))
    kind = {
        (1, 1, 1, 1, 1): HIGH_CARD,
        (2, 1, 1, 1): PAIR,
        (2, 2, 1): TWO_PAIR,
        (3, 1, 1): THREE_OF_A_KIND,
        (3, 2): FULL_HOUSE,
        (4, 1): FOUR_OF_A_KIND,
    }[shape]
    return _LOW_BASE - _encode(kind, order)


def low_category(value: int) -> str:
    """The poker category a low value (``low_27_value``, ``low_a5_value``) holds against it:
    ``"high_card"`` for a hand with none, ``"pair"``, ``"straight"`` (deuce-to-seven only), ..."""
    return category(_LOW_BASE - value)


def low_ranks(value: int) -> tuple[int, ...]:
    """The ranks a low value compares, in order (the ace is 1 in ace-to-five, 14 in deuce-to-seven)."""
    return ranks_of(_LOW_BASE - value)


def card_indexes(hands: Sequence[Sequence[str]]) -> np.ndarray:
    """An ``(n, 5)`` array of card indexes (``cards.INDEX``) for :func:`high_values`."""
    import numpy as np

    return np.array([[INDEX[card] for card in hand] for hand in hands], dtype=np.int16)


def high_values(
    hands: Any,
    wild: Collection[str] = _NO_WILD,
    *,
    flush_by_suit: bool = False,
    lowest_rank: int | str = 2,
) -> NDArray[np.int64]:
    """The values of many 5-card hands at once, equal to :func:`high_value` of each.

    ``hands`` is an ``(n, 5)`` integer array of card indexes (``cards.INDEX``: ``4 * rank + suit``,
    jokers 52 and 53); the result is an ``int64`` array of ``n`` values. For bots and simulations.
    """
    import numpy as np

    index = np.asarray(hands)
    if index.ndim != 2 or index.shape[1] != 5:
        raise ValueError(f"hands must be an (n, 5) array of card indexes, not shape {index.shape}")
    if index.size and (int(index.min()) < 0 or int(index.max()) >= len(INDEX)):
        raise ValueError(f"card indexes run from 0 to {len(INDEX) - 1}; got {int(index.min())}..{int(index.max())}")
    wild_set = frozenset(wild)
    key_of, flush_suit = _bulk_maps(wild_set)
    low_ids, high_ids, table = _tables(straight_tops(lowest_rank)).arrays()
    columns = index.T
    keys = key_of[columns[0]] + key_of[columns[1]] + key_of[columns[2]] + key_of[columns[3]] + key_of[columns[4]]
    if len(keys) and int(keys.max()) >= _BAD_CARD:
        raise _bad_row(index, keys >= _BAD_CARD, wild_set)
    suit = flush_suit[keys >> _SUIT_SHIFT]  # 1..4 when all five can be one suit, else 0
    low = low_ids[keys & ((1 << _HIGH_SHIFT) - 1)]
    high = high_ids[(keys >> _HIGH_SHIFT) & ((1 << (_SUIT_SHIFT - _HIGH_SHIFT)) - 1)]
    lows, highs = table.shape[1], table.shape[2]
    flat = ((suit != 0) * lows + low) * highs + high
    # Indexing by an array numpy's stubs cannot type (a row of ``index`` is Any to them) gives Any;
    # the values are read from the int64 table, so they are int64.
    values: NDArray[np.int64] = table.reshape(-1)[flat]
    invalid = (values == 0) | (low < 0) | (high < 0)
    if invalid.any():
        raise _bad_row(index, invalid, wild_set)
    if flush_by_suit:
        is_flush = (values >> CATEGORY_SHIFT) == FLUSH
        values = values | np.where(is_flush, suit.astype(np.int64) << EXTRA_SHIFT, 0)
    return values


def _bad_row(index: Any, bad: Any, wild: frozenset[str]) -> ValueError:
    """The error for the first hand of a bulk call that cannot be valued."""
    import numpy as np

    row = index[int(np.flatnonzero(bad)[0])]
    return _hand_error([LA_VIUDA_CODES[int(i)] if 0 <= int(i) < 54 else int(i) for i in row], wild)


LA_VIUDA_CODES = tuple(INDEX)


@functools.lru_cache(maxsize=64)
def _bulk_maps(wild: frozenset[str]) -> tuple[NDArray[np.int64], NDArray[np.uint8]]:
    """Per card index, its bulk key; and per suit field, the suit (1..4) all five cards can share, or 0.

    A bulk key packs the table key's low digits, its high digits (with the wilds), and a count per
    suit in 3 bits each; a wild counts once in every suit, so the five cards can be one suit
    exactly when some suit counts 5. A joker that is not wild gets a key no hand can reach.
    """
    import numpy as np

    keys = np.full(54, _BAD_CARD, dtype=np.int64)
    for card, index in INDEX.items():
        if card in wild:
            key, suits = _W_UNIT, [0, 1, 2, 3]
        elif card in _FAST_KEY:
            key, suits = _FAST_KEY[card], [SUITS.index(card[1])]
        else:
            continue
        keys[index] = key % _LOW_UNIT | (key // _LOW_UNIT) << _HIGH_SHIFT
        keys[index] |= sum(1 << (3 * suit) for suit in suits) << _SUIT_SHIFT
    flush_suit = np.zeros(1 << 12, dtype=np.uint8)
    for suit in range(4):
        for field in range(1 << 12):
            if (field >> (3 * suit)) & 7 == 5:
                flush_suit[field] = suit + 1
    return keys, flush_suit


def wild_set(rank: str | None = None, *, jokers: bool = True) -> frozenset[str]:
    """The wild cards of a deal: the jokers (if any) and the four cards of ``rank`` (LV-5)."""
    cards = set(JOKERS) if jokers else set()
    if rank is not None:
        cards.update(rank + suit for suit in SUITS)
    return frozenset(cards)
