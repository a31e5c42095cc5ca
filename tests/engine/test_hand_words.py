"""Hands and cards in words (CM-1, CM-2, CM-11..CM-14, GC-1): what a player reads, as Text."""

from __future__ import annotations

import random

import pytest

from games.engine.card_names import and_list, card_name, colour_name, rank_plural
from games.engine.cards import LA_VIUDA_DECK, parse_hand
from games.engine.hand_words import category_name, describe, wild_substitutes
from games.engine.hands import CATEGORIES, category, high_value, wild_set
from games.engine.words import Text

ACES_WILD = wild_set("A")


def _described(text: str, wild: frozenset[str]) -> str:
    cards = parse_hand(text)
    return describe(high_value(cards, wild), cards, wild)


@pytest.mark.parametrize(
    ("card", "words"),
    [
        ("Ah", "the ace of hearts"),
        ("Td", "the ten of diamonds"),
        ("2c", "the two of clubs"),
        ("X1", "the joker"),
        ("X2", "the joker"),
        ("1c", "the one of cups"),
        ("12e", "the king of swords"),
        ("10o", "the knave of coins"),
        ("11b", "the knight of batons"),
    ],
)
def test_cm_1_gc_1_card_names_are_words(card, words):
    name = card_name(card)
    assert isinstance(name, Text) and name == words
    assert name.msgid in ("the {rank} of {suit}", "the joker")


def test_gc_1_a_spanish_cups_card_needs_the_deck_said_when_its_code_is_also_english():
    assert card_name("7c") == "the seven of clubs"
    assert card_name("7c", spanish=True) == "the seven of cups"


def test_cm_2_colours_and_rank_plurals_and_lists_are_words():
    assert colour_name("red") == "red" and isinstance(colour_name("black"), Text)
    assert rank_plural("K") == "kings" and rank_plural(5) == "fives"
    assert and_list(["Ana", "Bruno", "Carla"]) == "Ana, Bruno and Carla"
    assert and_list(["Ana"]) == "Ana"


def test_cm_11_every_category_has_a_name_in_words_and_keeps_its_code():
    assert category_name("full_house") == "full house"
    assert [category_name(code) for code in CATEGORIES][-1] == "five of a kind"
    assert all(isinstance(category_name(code), Text) for code in CATEGORIES)


def test_cm_14_a_description_says_what_the_joker_stands_for():
    wild = frozenset({"X1"})
    assert (
        _described("X1 Kd Kh 5c 5s", wild) == "full house, kings full of fives: the joker stands for the king of spades"
    )


def test_cm_14_a_wild_may_stand_for_a_second_copy_in_a_flush():
    wild = frozenset({"X1"})
    assert _described("As Ks Qs 9s X1", wild) == (
        "flush, ace-ace-king-queen-nine: the joker stands for a second ace of spades"
    )


def test_cm_14_a_wild_rank_card_stands_for_itself_when_it_can():
    described = _described("Ah Kh Qh Jh X2", ACES_WILD)
    assert described == "royal flush: the ace of hearts stands for itself and the joker stands for the ten of hearts"


def test_cm_14_two_jokers_and_a_wild_ace_are_told_apart():
    described = _described("X1 X2 Ac Kd 7h", ACES_WILD)
    assert described.startswith("four of a kind, kings, seven kicker: one joker stands for the king of")
    assert "the other joker stands for the king of" in described
    assert described.endswith("the ace of clubs stands for the king of clubs")


def test_cm_13_without_cards_a_description_reads_as_before():
    """Five-Card Draw and old records call ``describe(value)``: the words are those of CM-13 alone."""
    value = high_value(parse_hand("X1 Kd Kh 5c 5s"), frozenset({"X1"}))
    assert describe(value) == "full house, kings full of fives"
    assert describe(value).msgid == "full house, {high} full of {low}"


def test_cm_14_substitutes_remake_the_value_of_random_wild_hands():
    """The wild cards, replaced by what they stand for, make a natural hand of the same value
    (unless a copy of a card already held is needed, which no natural hand can be)."""
    rng = random.Random(14)
    checked = 0
    for _ in range(3000):
        cards = tuple(rng.sample(LA_VIUDA_DECK, 5))
        value = high_value(cards, ACES_WILD)
        substitutes = dict(wild_substitutes(value, cards, ACES_WILD))
        wilds = [card for card in cards if card in ACES_WILD]
        assert sorted(substitutes) == sorted(wilds)
        natural = tuple(substitutes.get(card, card) for card in cards)
        if len(set(natural)) == 5:
            assert high_value(natural) == value or category(value) == "five_of_a_kind", cards
            checked += 1
    assert checked > 1000


def test_cm_14_wild_cards_that_stand_for_themselves_are_said_together():
    """CM-14: with aces wild, four aces and a joker are five aces; the aces are themselves."""
    assert _described("X1 Ac Ad Ah As", ACES_WILD) == (
        "five of a kind, aces: the ace of clubs, the ace of diamonds, the ace of hearts and the ace of spades"
        " stand for themselves and the joker stands for a second ace of spades"
    )
