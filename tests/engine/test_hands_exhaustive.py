"""Every 5-card hand, checked: CM-15's counts for 52 cards, and the 54-card La Viuda deck with both
jokers and the aces wild (LV-5's first hand) against a brute force over the wilds (CM-14)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from games.engine.cards import INDEX, LA_VIUDA_DECK, RANK_VALUE, STANDARD_DECK, reduced_pack
from games.engine.hands import CATEGORIES, high_value, high_values, wild_set
from tests.engine.exhaustive import ALL_STRAIGHTS, combinations, reference

LA_VIUDA_WILD = wild_set("A")  # X1, X2, Ac, Ad, Ah, As
CM_15 = {
    "royal_flush": 4,
    "straight_flush": 36,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}


def encode(category_index: int, ranks: tuple[int, ...]) -> int:
    """The documented value layout: category in the top digit, then the compared ranks."""
    return category_index << 24 | sum(rank << (16 - 4 * position) for position, rank in enumerate(ranks))


def brute_force(naturals: tuple[int, ...], wilds: int, suited: bool, straights: frozenset[int] = ALL_STRAIGHTS) -> int:
    """The best value over every substitution of the wilds, each wild any of the 52 cards, repeats allowed.

    A 5-card hand's value depends only on its ranks and on whether all five share a suit. A wild
    may take any rank, and any suit: if the natural cards share a suit, the wilds can all take it
    (flush) or not; otherwise no flush is reachable. So trying every multiset of ranks for the
    wilds, with and without the flush, tries every substitution.
    """
    best = 0
    for extra in itertools.combinations_with_replacement(range(2, 15), wilds):
        ranks = tuple(sorted(naturals + extra))
        best = max(best, encode(*reference(ranks, False, straights)))
        if suited:
            best = max(best, encode(*reference(ranks, True, straights)))
    return best


def classes(hands: np.ndarray, deck: tuple[str, ...], wild: frozenset[str], straights: frozenset[int] = ALL_STRAIGHTS):
    """Group hands by what their value depends on: natural ranks, number of wilds, suited naturals."""
    is_wild = np.array([card in wild for card in deck])
    rank = np.array([2 if card in wild else RANK_VALUE[card[0]] for card in deck], dtype=np.int64)
    suit_bit = np.array([15 if card in wild else 1 << "cdhs".index(card[1]) for card in deck], dtype=np.int64)
    key = np.where(is_wild[hands], 5**13, 5 ** (rank[hands] - 2)).sum(axis=1)
    suited = np.bitwise_and.reduce(suit_bit[hands], axis=1) != 0
    unique, first, inverse = np.unique(2 * key + suited, return_index=True, return_inverse=True)
    expected = np.empty(len(unique), dtype=np.int64)
    for position, row in enumerate(first):
        cards = [deck[index] for index in hands[row]]
        naturals = tuple(sorted(RANK_VALUE[card[0]] for card in cards if card not in wild))
        expected[position] = brute_force(naturals, 5 - len(naturals), bool(suited[row]), straights)
    return expected[inverse.reshape(-1)], is_wild[hands].sum(axis=1)


def test_cm_15_every_hand_of_52_cards_counts_exactly():
    """CM-15 by exhaustive enumeration (the bulk path), and each value equals the reference evaluator."""
    hands = combinations(52, 5)
    values = high_values(hands)
    counts = Counter(dict(zip(CATEGORIES, np.bincount(values >> 24, minlength=len(CATEGORIES)).tolist())))
    assert {name: counts[name] for name in CM_15} == CM_15
    assert counts["five_of_a_kind"] == 0
    expected, _ = classes(hands, STANDARD_DECK, frozenset())
    assert np.array_equal(values, expected)


def test_cm_15_scalar_path_equals_bulk_path():
    rng = np.random.default_rng(15)
    hands = np.array([rng.choice(52, 5, replace=False) for _ in range(100_000)])
    values = high_values(hands)
    scalar = [high_value(tuple(STANDARD_DECK[i] for i in row)) for row in hands]
    assert scalar == values.tolist()


def test_cm_14_every_la_viuda_hand_is_its_best_substitution(capsys):
    """CM-14, LV-5: all 3,162,510 hands of 54 cards, jokers and aces wild, equal the brute force.

    Every hand is checked, so every hand with 3 or more wilds is among them.
    """
    hands = combinations(54, 5)
    values = high_values(hands, LA_VIUDA_WILD)
    expected, wilds = classes(hands, LA_VIUDA_DECK, LA_VIUDA_WILD)
    assert np.array_equal(values, expected)
    assert int((wilds >= 3).sum()) == 20 * 1128 + 15 * 48 + 6  # C(6,3)C(48,2) + C(6,4)48 + C(6,5)
    counts = np.bincount(values >> 24, minlength=len(CATEGORIES))
    assert counts.sum() == 3_162_510
    with capsys.disabled():
        print("\n54 cards, jokers and aces wild:", dict(zip(reversed(CATEGORIES), reversed(counts.tolist()))))


def _literal_brute_force(cards: tuple[str, ...], wild: frozenset[str]) -> int:
    """Every substitution of the wilds by the 52 cards, repeats allowed, valued by the reference."""
    naturals = [card for card in cards if card not in wild]
    best = 0
    for extra in itertools.combinations_with_replacement(STANDARD_DECK, 5 - len(naturals)):
        hand = naturals + list(extra)
        ranks = tuple(sorted(RANK_VALUE[card[0]] for card in hand))
        best = max(best, encode(*reference(ranks, len({card[1] for card in hand}) == 1)))
    return best


@pytest.mark.parametrize(("wilds", "samples"), [(1, 3000), (2, 400), (3, 15), (4, 1)])
def test_cm_14_random_hands_against_literal_substitution(wilds, samples):
    """CM-14 on random La Viuda hands with the scalar path: substitutions over all 52 cards."""
    rng = random.Random(14 + wilds)
    wild_cards = sorted(LA_VIUDA_WILD)
    naturals = [card for card in LA_VIUDA_DECK if card not in LA_VIUDA_WILD]
    for _ in range(samples):
        hand = tuple(rng.sample(wild_cards, wilds) + rng.sample(naturals, 5 - wilds))
        hand = tuple(rng.sample(hand, 5))
        value = high_value(hand, LA_VIUDA_WILD)
        assert value == _literal_brute_force(hand, LA_VIUDA_WILD), hand


@pytest.mark.parametrize("players", range(2, 8))
def test_wp_8_every_hand_of_each_reduced_pack(players):
    """WP-8: from a pack's lowest rank up, only the straights inside it, no wheel (exhaustive)."""
    deck = reduced_pack(players)
    lowest = RANK_VALUE[deck[0][0]]
    straights = frozenset(top for top in range(6, 15) if top - 4 >= lowest)
    hands = combinations(len(deck), 5)
    index = np.array([INDEX[card] for card in deck])[hands]
    values = high_values(index, lowest_rank=lowest)
    expected, _ = classes(hands, deck, frozenset(), straights)
    assert np.array_equal(values, expected)
    sample = hands[:: max(1, len(hands) // 2000)]
    assert [high_value([deck[i] for i in row], lowest_rank=deck[0][0]) for row in sample] == [
        int(value) for value in values[:: max(1, len(hands) // 2000)]
    ]
    if players == 2:
        assert Counter(np.asarray(values) >> 24)[4] == 4**5 - 4  # T-J-Q-K-A, not all one suit


def test_lv_12_bulk_flush_by_suit_equals_scalar():
    rng = np.random.default_rng(12)
    wild = wild_set("9")
    hands = np.array([rng.choice(54, 5, replace=False) for _ in range(30_000)])
    # add suited hands so flushes are frequent
    suited = np.array([rng.choice(13, 5, replace=False) * 4 + rng.integers(4) for _ in range(5_000)])
    hands = np.vstack([hands, suited])
    values = high_values(hands, wild, flush_by_suit=True)
    scalar = [high_value([LA_VIUDA_DECK[i] for i in row], wild, flush_by_suit=True) for row in hands]
    assert values.tolist() == scalar
    assert (values >> 24 == 5).sum() > 1000


def test_bulk_path_refuses_a_joker_that_is_not_wild():
    with pytest.raises(ValueError, match="X1 is a joker"):
        high_values(np.array([[0, 5, 9, 14, 52]]))
    with pytest.raises(ValueError, match="card indexes run from 0 to 53"):
        high_values(np.array([[0, 5, 9, 14, 54]]))
    with pytest.raises(ValueError, match="shape"):
        high_values(np.array([0, 5, 9, 14, 20]))


def _representatives():
    """One hand for every (natural ranks, number of wilds, naturals suited or not) a hand can have.

    The wilds are the jokers, then cards of a rank that is not among the naturals, so every wild
    rank and every mix of natural ranks (aces and twos included) is covered.
    """
    names = {RANK_VALUE[rank]: rank for rank in RANK_VALUE}
    for size in range(6):
        for naturals in itertools.combinations_with_replacement(range(2, 15), size):
            counts = Counter(naturals)
            if counts and max(counts.values()) > 4:
                continue
            wild_rank = next(rank for rank in range(2, 15) if rank not in counts)
            wild = frozenset({"X1", "X2", *(names[wild_rank] + suit for suit in "cdhs")})
            wilds = ["X1", "X2", *(names[wild_rank] + suit for suit in "cdhs")][: 5 - size]
            used: Counter[int] = Counter()
            mixed = []
            for rank in naturals:  # suits in turn, so a repeated rank never repeats a card
                mixed.append(names[rank] + "cdhs"[used[rank]])
                used[rank] += 1
            if size >= 2 and len({card[1] for card in mixed}) > 1:
                yield tuple(mixed + wilds), wild, naturals, False
            elif size >= 2 and len(counts) == size:  # all clubs so far: move one to diamonds
                yield (mixed[0][0] + "d", *mixed[1:], *wilds), wild, naturals, False
            if len(counts) == size:
                yield tuple([names[rank] + "s" for rank in naturals] + wilds), wild, naturals, True


def test_cm_14_every_kind_of_hand_with_any_wild_rank():
    """CM-14 for every natural rank multiset, 0-5 wilds, suited or not, with wild ranks other than
    aces too (the 54-card test above never holds a natural ace with aces wild)."""
    checked = 0
    for hand, wild, naturals, suited in _representatives():
        assert high_value(hand, wild) == brute_force(naturals, 5 - len(naturals), suited), hand
        checked += 1
    assert checked > 10_000
