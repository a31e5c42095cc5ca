"""Poker hand values (CM-11..CM-17, LV-12, WP-8)."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_hand
from games.engine.hand_words import describe
from games.engine.hands import (
    category,
    high_value,
    low_27_value,
    low_a5_value,
    make_value,
    ranks_of,
    wild_set,
)


def value(text: str, wild: str = "", **options) -> int:
    return high_value(parse_hand(text), frozenset(wild.split()), **options)


@pytest.mark.parametrize(
    ("hand", "wild", "name"),
    [
        ("Ah Ad Ac As X1", "X1", "five_of_a_kind"),
        ("As Ks Qs Js Ts", "", "royal_flush"),
        ("Ah Kh Qh Jh X2", "X2", "royal_flush"),
        ("9s 8s 7s 6s 5s", "", "straight_flush"),
        ("Ac 2c 3c 4c 5c", "", "straight_flush"),
        ("9s 9h 9d 9c 2c", "", "four_of_a_kind"),
        ("9s 9h 9d 2s 2c", "", "full_house"),
        ("As Ks Qs 9s 2s", "", "flush"),
        ("Ts Jh Qd Kc Ac", "", "straight"),
        ("Ac 2d 3h 4s 5c", "", "straight"),
        ("7s 7h 7d Kc 2c", "", "three_of_a_kind"),
        ("7s 7h Kd Kc 2c", "", "two_pair"),
        ("7s 7h Kd Qc 2c", "", "pair"),
        ("7s 8h Kd Qc 2c", "", "high_card"),
    ],
)
def test_cm_11_categories(hand, wild, name):
    assert category(value(hand, wild)) == name


def test_cm_11_order_of_categories():
    order = [
        value("7s 8h Kd Qc 2c"),
        value("7s 7h Kd Qc 2c"),
        value("7s 7h Kd Kc 2c"),
        value("7s 7h 7d Kc 2c"),
        value("Ac 2d 3h 4s 5c"),
        value("As Ks Qs 9s 2s"),
        value("9s 9h 9d 2s 2c"),
        value("9s 9h 9d 9c 2c"),
        value("9s 8s 7s 6s 5s"),
        value("As Ks Qs Js Ts"),
        value("Ah Ad Ac As X1", "X1"),
    ]
    assert order == sorted(order) and len(set(order)) == len(order)


def test_cm_12_wheel_is_the_lowest_straight_and_nothing_wraps():
    assert value("Ac 2d 3h 4s 5c") < value("2c 3d 4h 5s 6c")
    assert category(value("Qc Kd Ah 2s 3c")) == "high_card"


def test_cm_13_ranks_within_categories():
    assert value("Kh Kd 9s 9c Ah") > value("Kh Kd 9s 9c Qh")
    assert value("Kh Kd 2s 2c 3h") > value("Qh Qd Js Jc Ah")
    assert value("3h 3d 3s 2c 2h") > value("2h 2d 2s Ac Ah")
    assert value("As Kd 9h 7c 3s") == value("Ac Kh 9s 7d 3c")  # suits never break a tie
    assert value("As Ks 9s 7s 3s") == value("Ah Kh 9h 7h 3h")


def test_cm_14_wild_cards_stand_for_any_card_even_a_copy():
    assert value("As Ks Qs 9s X1", "X1") > value("Ah Kh Qh Jh 9h")
    assert describe(value("As Ks Qs 9s X1", "X1")) == "flush, ace-ace-king-queen-nine"
    assert category(value("X1 X2 2c 2d 2h", "X1 X2")) == "five_of_a_kind"
    assert category(value("X1 X2 Ac Ad Ah", "X1 X2 Ac Ad Ah As")) == "five_of_a_kind"
    assert value("X1 X2 Ac Kd 7h", " ".join(wild_set("A"))) == value("Kc Kd Kh Ks 7h")


def test_lv_12_flush_by_suit_ranks_suits_first():
    hearts, diamonds = value("2h 4h 6h 8h Th", flush_by_suit=True), value("Ad Kd Qd Jd 9d", flush_by_suit=True)
    assert hearts > diamonds
    assert value("2h 4h 6h 8h Th") < value("Ad Kd Qd Jd 9d")
    assert value("As Ks Qs Js 9s", flush_by_suit=True) > value("Ah Kh Qh Jh 9h", flush_by_suit=True)
    # straight flushes are not affected
    assert value("9c 8c 7c 6c 5c", flush_by_suit=True) == value("9s 8s 7s 6s 5s", flush_by_suit=True)
    assert "in hearts" in describe(hearts)


def test_wp_8_reduced_pack_straights():
    assert category(value("Tc Jd Qh Ks Ac", lowest_rank="T")) == "straight"
    assert category(value("9c Td Jh Qs Kc", lowest_rank="T")) == "high_card"
    assert category(value("9c Td Jh Qs Kc", lowest_rank=9)) == "straight"
    assert category(value("Ac 2d 3h 4s 5c", lowest_rank=5)) == "high_card"


def test_describe_reads_like_english():
    assert describe(value("Kh Kd 9s 9c Ah")) == "two pair, kings and nines, ace kicker"
    assert describe(value("9s 9h 9d 2s 2c")) == "full house, nines full of twos"
    assert describe(value("Ac 2d 3h 4s 5c")) == "straight, five high"
    assert describe(value("7s 7h Kd Qc 2c")) == "pair of sevens, kickers king, queen, two"


def test_cm_16_deuce_to_seven():
    best = low_27_value(parse_hand("7c 5d 4h 3s 2c"))
    assert best > low_27_value(parse_hand("8c 5d 4h 3s 2c"))
    assert best > low_27_value(parse_hand("6c 5d 4h 3s 2c"))  # a straight counts against
    assert best > low_27_value(parse_hand("7c 5c 4c 3c 2c"))  # so does a flush
    assert low_27_value(parse_hand("Ac 2d 3h 4s 5c")) < low_27_value(parse_hand("Kc 2d 3h 4s 5c"))


def test_cm_17_ace_to_five():
    best = low_a5_value(parse_hand("5c 4d 3h 2s Ac"))
    assert best == low_a5_value(parse_hand("5c 4c 3c 2c Ac"))  # straights and flushes are ignored
    assert best > low_a5_value(parse_hand("6c 4d 3h 2s Ac"))
    assert low_a5_value(parse_hand("6c 5d 4h 3s 2c")) > low_a5_value(parse_hand("6c 5d 4h 3s 3c"))
    assert low_a5_value(parse_hand("Kc Qd Jh 9s 8c")) > low_a5_value(parse_hand("Ac Ad 2h 3s 4c"))


def test_high_value_refuses_bad_hands():
    with pytest.raises(ValueError, match="5 cards"):
        high_value(("As", "Kd"))
    with pytest.raises(ValueError, match="X1 is a joker"):
        high_value(("As", "Kd", "Qh", "Jc", "X1"))
    with pytest.raises(ValueError, match="'as' is not a card code"):
        high_value(("as", "Kd", "Qh", "Jc", "9s"))


@pytest.mark.parametrize(
    ("hand", "wild", "words"),
    [
        ("X1 X2 9c 9d 9h", "X1 X2", "five of a kind, nines"),
        ("As Ks Qs Js Ts", "", "royal flush"),
        ("9s 8s 7s 6s 5s", "", "straight flush, nine high"),
        ("9s 9h 9d 9c 2c", "", "four of a kind, nines, two kicker"),
        ("As Ks Qs 9s 2s", "", "flush, ace-king-queen-nine-two"),
        ("Ts Jh Qd Kc Ac", "", "straight, ace high"),
        ("7s 7h 7d Kc 2c", "", "three of a kind, sevens, kickers king, two"),
        ("7s 8h Kd Qc 2c", "", "high card king, then queen, eight, seven, two"),
    ],
)
def test_cm_11_describe_every_category(hand, wild, words):
    assert describe(value(hand, wild)) == words


def test_cm_13_make_value_gives_thresholds():
    jacks = make_value("pair", ["J"])
    assert value("Jc Jd 2h 3s 4c") >= jacks > value("Tc Td Ah Ks Qc")
    assert value("X1 Jd 2h 3s 4c", "X1") >= jacks  # a wild counts towards openers (FD-6)
    assert ranks_of(value("Kh Kd 9s 9c Ah")) == (13, 9, 14)
    assert category(make_value("full_house", [3, 2])) == "full_house"
